package orchestrator_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// TestDomainLabelsOfImportedDatasets imports every dataset kind through the
// real importers (HLE once per category) and renders prompt variant A, whose
// opening names the {domain}, with prompts.DomainLabel of each dataset
// produced, as the orchestrator does: every dataset gets its own label,
// never the fallback "problems", and an unsolvable (-abstain) dataset gets
// its base dataset's label, which never says the items are unsolvable.
func TestDomainLabelsOfImportedDatasets(t *testing.T) {
	want := map[string]string{
		"aime":                          "competition math problems",
		"mmlu-math":                     "math multiple-choice questions",
		"mmlu-math-abstain":             "math multiple-choice questions",
		"gpqa":                          "graduate-level science questions",
		"gpqa-abstain":                  "graduate-level science questions",
		"lcb":                           "competitive programming problems",
		"hle":                           "expert-level questions",
		"hle-math":                      "expert-level math questions",
		"hle-physics":                   "expert-level physics questions",
		"hle-computer-science-ai":       "expert-level computer science and AI questions",
		"hle-humanities-social-science": "expert-level humanities and social science questions",
		"hle-chemistry":                 "expert-level chemistry questions",
		"hle-engineering":               "expert-level engineering questions",
		"hle-biology-medicine":          "expert-level biology and medicine questions",
		"hle-other":                     "expert-level questions",
	}
	tmpl, err := prompts.Planner(vocab.Neutral)
	if err != nil {
		t.Fatal(err)
	}
	imported := importEveryKind(t)
	var produced []string
	for dataset, ps := range imported {
		produced = append(produced, dataset)
		t.Run(dataset, func(t *testing.T) {
			label, ok := want[dataset]
			if !ok {
				t.Fatalf("the importers produce dataset %q, which this test has no label for: add it", dataset)
			}
			pool := make([]prompts.Problem, min(3, len(ps)))
			for i := range pool {
				pool[i] = prompts.Problem{ID: fmt.Sprintf("p%d", i+1), Text: ps[i].Text, Value: 1}
			}
			got := tmpl.Render(prompts.PlannerInput{Problems: pool, Budget: 3000, Domain: prompts.DomainLabel(dataset)})
			if opening := "You are given a set of " + label + " to attempt"; !strings.HasPrefix(got, opening) {
				first, _, _ := strings.Cut(got, "\n")
				t.Errorf("prompt opens %q, want %q", first, opening)
			}
			for _, tell := range []string{"abstain", "unsolv", "unanswer", "no answer"} {
				if strings.Contains(strings.ToLower(prompts.DomainLabel(dataset)), tell) {
					t.Errorf("label %q says %q", prompts.DomainLabel(dataset), tell)
				}
			}
		})
	}
	for dataset := range want {
		if !slices.Contains(produced, dataset) {
			t.Errorf("no importer produced %q", dataset)
		}
	}
}
