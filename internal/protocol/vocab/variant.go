package vocab

import "cmp"

// Variant names a planner prompt variant (SPEC §6).
type Variant string

// The prompt variants.
const (
	// Default is the paper's appendix "Planner Prompt", the headline
	// variant of every report.
	Default Variant = "default"
	// Neutral is ablation variant A.
	Neutral Variant = "A"
	// Agent is ablation variant B, the autonomous agent.
	Agent Variant = "B"
	// Exam is ablation variant C, the timed exam.
	Exam Variant = "C"
	// NoVariant is the variant stored for strategies that use no prompt
	// (the reference strategies).
	NoVariant Variant = "-"
)

// Variants lists the prompt variants in their order (default, A, B, C).
func Variants() []Variant { return []Variant{Default, Neutral, Agent, Exam} }

// Valid reports whether v is a prompt variant (NoVariant is not).
func (v Variant) Valid() bool {
	switch v {
	case Default, Neutral, Agent, Exam:
		return true
	}
	return false
}

// String returns the stored form.
func (v Variant) String() string { return string(v) }

// CompareVariants orders Default first, then the others by name.
func CompareVariants(a, b Variant) int {
	rank := func(v Variant) int {
		if v == Default {
			return 0
		}
		return 1
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b))
}
