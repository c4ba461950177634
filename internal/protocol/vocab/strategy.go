package vocab

import "cmp"

// Strategy names how a grid cell's plan is made (SPEC §7): by the solver's
// own model, or by a reference planner.
type Strategy string

// The strategies.
const (
	// LLM is the strategy in which the solver's own model plans.
	LLM Strategy = "llm"
	// Random plans one seeded random order of the pool; it differs from
	// the random reference of η, which averages over every order.
	Random Strategy = "random"
	// ShortestFirst attempts items in increasing order of their true cost.
	ShortestFirst Strategy = "shortest_first"
	// AllInOrder attempts every item in pool order.
	AllInOrder Strategy = "all_in_order"
	// Population plans from what the other models know about the items
	// (SPEC §4): solve rate over cost on the solver's scale.
	Population Strategy = "population"
	// SelfFeasibility knows the solver's own y but not its costs (SPEC §4).
	SelfFeasibility Strategy = "self_feasibility"
	// SelfCost knows the solver's own costs but not its y (SPEC §4).
	SelfCost Strategy = "self_cost"
)

// Strategies lists the known strategies in their order.
func Strategies() []Strategy {
	return []Strategy{LLM, AllInOrder, Population, Random, SelfCost, SelfFeasibility, ShortestFirst}
}

// PartialReferences lists the partial-information references of SPEC §4,
// in their order.
func PartialReferences() []Strategy { return []Strategy{Population, SelfFeasibility, SelfCost} }

// Valid reports whether s is a known strategy.
func (s Strategy) Valid() bool {
	switch s {
	case LLM, Random, ShortestFirst, AllInOrder, Population, SelfFeasibility, SelfCost:
		return true
	}
	return false
}

// PartialReference reports whether s is a partial-information reference
// (SPEC §4): a plan built from other solvers' or the solver's own ground
// truth, computed where references are rather than by the Planner.
func (s Strategy) PartialReference() bool {
	return s == Population || s == SelfFeasibility || s == SelfCost
}

// UsesPrompt reports whether the strategy plans with a prompt variant
// (only the llm strategy does; the others have NoVariant).
func (s Strategy) UsesPrompt() bool { return s == LLM }

// String returns the stored form.
func (s Strategy) String() string { return string(s) }

// CompareStrategies orders the llm strategy first, then the reference
// strategies alphabetically.
func CompareStrategies(a, b Strategy) int {
	rank := func(s Strategy) int {
		if s == LLM {
			return 0
		}
		return 1
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b))
}
