package prompts

import (
	"strconv"
	"strings"
)

// Problem is what the planner sees of one problem: never its ground truth.
type Problem struct {
	// ID identifies the problem in the plan.
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
}

// Render renders the planner prompt.
func (t Template) Render(in PlannerInput) string {
	budget := strconv.FormatInt(in.Budget, 10)
	return t.render(map[string]string{
		"n":           strconv.Itoa(len(in.Problems)),
		"B_local":     budget,
		"B":           budget,
		"domain":      in.Domain,
		"points_rule": pointsRule(in.Problems),
		"problems":    problemBlock(in.Problems),
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
	for i, p := range problems {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("[id: " + p.ID + "] (points: " + strconv.FormatFloat(p.Value, 'g', -1, 64) + ")\n")
		b.WriteString(p.Text)
	}
	return b.String()
}

// domainLabels are the default {domain} labels per dataset.
var domainLabels = map[string]string{
	"aime":           "competition math problems",
	"mmlu":           "math multiple-choice questions",
	"mmlu-abstain":   "math multiple-choice questions",
	"gpqa":           "graduate-level science questions",
	"gpqa-abstain":   "graduate-level science questions",
	"lcb":            "competitive programming problems",
	"livecodebench":  "competitive programming problems",
	"hle":            "expert-level questions",
	"hle-physics":    "expert-level physics questions",
	"hle-math":       "expert-level math questions",
	"hle-chemistry":  "expert-level chemistry questions",
	"hle-biology":    "expert-level biology questions",
	"hle-humanities": "expert-level humanities questions",
}

// DomainLabel returns the {domain} label of a dataset; unknown datasets get
// "problems".
func DomainLabel(dataset string) string {
	if label, ok := domainLabels[strings.ToLower(dataset)]; ok {
		return label
	}
	return "problems"
}
