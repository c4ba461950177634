package prompts

import (
	"strconv"
	"strings"
)

// Problem is what the planner sees of one problem: never its ground truth.
type Problem struct {
	// ID identifies the problem in the plan: its planner id (p1 … pn, see
	// package plannerids), never the dataset's id, which leaks (SPEC §1).
	ID string
	// Text is the problem statement.
	Text string
	// Value is its points (v_i > 0).
	Value float64
}

// PlannerInput is what a planner prompt is rendered from.
type PlannerInput struct {
	// Problems is the pool, in pool order.
	Problems []Problem
	// Budget is B in tokens.
	Budget int64
	// Domain labels the problems, e.g. "competition math problems".
	Domain string
	// Block is ProblemBlock(Problems) when the caller has it already (a
	// quote renders each pool's prompt for every α); "" renders it.
	Block string
}

// ProblemBlock is the {problems} block of a planner prompt over problems.
func ProblemBlock(problems []Problem) string { return problemBlock(problems) }

// Render renders the planner prompt.
func (t Template) Render(in PlannerInput) string {
	budget := strconv.FormatInt(in.Budget, 10)
	block := in.Block
	if block == "" {
		block = problemBlock(in.Problems)
	}
	return t.render(map[string]string{
		"n":           strconv.Itoa(len(in.Problems)),
		"B_local":     budget,
		"B":           budget,
		"domain":      in.Domain,
		"points_rule": pointsRule(in.Problems),
		"problems":    block,
	})
}

func pointsRule(problems []Problem) string {
	for _, p := range problems {
		if p.Value != 1 {
			return "Each problem is worth the points shown next to it."
		}
	}
	return "Each problem is worth 1 point."
}

// problemBlock renders "[id: <id>] (points: <v>)" and the text for each
// problem, separated by blank lines.
func problemBlock(problems []Problem) string {
	var b strings.Builder
	size := 0
	for _, p := range problems {
		size += len(p.ID) + len(p.Text) + 40 // the header and the blank line
	}
	b.Grow(size)
	for i, p := range problems {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("[id: " + p.ID + "] (points: " + strconv.FormatFloat(p.Value, 'g', -1, 64) + ")\n")
		b.WriteString(p.Text)
	}
	return b.String()
}

// domainLabels are the {domain} labels of the datasets the importers produce
// (package importers: aime, mmlu-math, gpqa, lcb, hle and hle-<category
// slug> for HLE's eight categories), and of a few other names in use for
// them. A "-abstain" dataset takes its base dataset's label (DomainLabel).
var domainLabels = map[string]string{
	"aime":                          "competition math problems",
	"mmlu-math":                     "math multiple-choice questions",
	"mmlu":                          "math multiple-choice questions",
	"gpqa":                          "graduate-level science questions",
	"lcb":                           "competitive programming problems",
	"livecodebench":                 "competitive programming problems",
	"hle":                           "expert-level questions",
	"hle-math":                      "expert-level math questions",
	"hle-physics":                   "expert-level physics questions",
	"hle-computer-science-ai":       "expert-level computer science and AI questions",
	"hle-humanities-social-science": "expert-level humanities and social science questions",
	"hle-chemistry":                 "expert-level chemistry questions",
	"hle-engineering":               "expert-level engineering questions",
	"hle-biology-medicine":          "expert-level biology and medicine questions",
	"hle-other":                     "expert-level questions",
	"hle-biology":                   "expert-level biology questions",
	"hle-humanities":                "expert-level humanities questions",
}

// abstainSuffix ends the name of a dataset of unsolvable variants of another
// dataset's items ("gpqa-abstain", "mmlu-math-abstain"; SPEC §1).
const abstainSuffix = "-abstain"

// DomainLabel returns the {domain} label of a dataset, compared without
// case; unknown datasets get "problems". A dataset named <base>-abstain gets
// the label of <base>: the label must not tell a planner that the items are
// unsolvable, since recognizing that is what the injection measures (SPEC
// §5).
func DomainLabel(dataset string) string {
	base := strings.TrimSuffix(strings.ToLower(dataset), abstainSuffix)
	if label, ok := domainLabels[base]; ok {
		return label
	}
	return "problems"
}
