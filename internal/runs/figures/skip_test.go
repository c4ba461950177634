package figures

import (
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/report"
)

// poolRecords returns the U and E records of pools 0 and 1 of one cell,
// scored from the given values.
func poolRecords(model, mode, dataset, strategy, variant string, alpha, value, oracle, random float64) []report.ScoreRecord {
	var out []report.ScoreRecord
	for pool := range 2 {
		for _, regime := range []string{"U", "E"} {
			out = append(out, scored(report.ScoreRecord{
				Model: model, Mode: mode, Dataset: dataset, Pool: pool, Alpha: alpha,
				Variant: variant, Strategy: strategy, Regime: regime,
				Value: value, Oracle: oracle, Random: random, PoolSize: 10,
			}))
		}
	}
	return out
}

// TestDrawSkipsFiguresWithoutData checks, case by case, which figures
// Draw returns: a figure without data is left out, never drawn empty.
func TestDrawSkipsFiguresWithoutData(t *testing.T) {
	plain := slices.DeleteFunc(fixtureRecords(), func(r report.ScoreRecord) bool { return r.Source != "" })
	unparsed := slices.Clone(plain)
	for i := range unparsed {
		unparsed[i].Excluded, unparsed[i].Eta = "unparseable", nil
	}
	zeroRatioOnly := slices.DeleteFunc(fixtureRecords(), func(r report.ScoreRecord) bool { return r.Ratio != nil && *r.Ratio > 0 })
	references := append(
		poolRecords("m", "standard", "aime", "random", "-", 0.5, 2, 4, 2),
		poolRecords("m", "standard", "aime", "shortest_first", "-", 0.5, 3, 4, 2)...)
	nothingSolvable := poolRecords("m", "standard", "aime", "llm", "A", 0.5, 0, 0, 0)
	twoAlphas := append(
		poolRecords("m", "extended", "aime", "llm", "A", 0.25, 1, 4, 2),
		poolRecords("m", "extended", "aime", "llm", "A", 0.5, 3, 4, 2)...)
	undecomposed := slices.DeleteFunc(slices.Clone(plain), func(r report.ScoreRecord) bool { return vocab.Strategy(r.Strategy).PartialReference() })
	for i := range undecomposed {
		undecomposed[i].PlannedValue, undecomposed[i].Selection, undecomposed[i].Order, undecomposed[i].Enforcement = nil, nil, nil, nil
	}
	partialOnly := slices.DeleteFunc(slices.Clone(plain), func(r report.ScoreRecord) bool {
		return r.Alpha != 0.5 || r.Dataset != "aime" || (r.Strategy != string(vocab.Population) && r.Strategy != string(vocab.SelfFeasibility))
	})
	noPopulation := slices.Clone(plain)
	for i, r := range noPopulation {
		if vocab.Strategy(r.Strategy).PartialReference() {
			noPopulation[i] = unparseable(r)
			noPopulation[i].Excluded = "no_population"
		}
	}
	totalsOnly := slices.DeleteFunc(fixtureBudgetAware(), func(r budgetaware.Row) bool { return r.Dataset != budgetaware.AllDatasets })

	cases := []struct {
		name    string
		records []report.ScoreRecord
		acc     []report.Accuracy
		ba      []budgetaware.Row
		alpha   float64
		want    []string
	}{
		{name: "empty report", want: nil},
		{name: "accuracy only", acc: fixtureAccuracy(), want: []string{"heatmap_accuracy"}},
		{
			name: "no injection, no re-solve", records: plain,
			want: []string{"efficiency_llm_default_a0.5", "regret_llm_default_a0.5", "heatmap_eta_u_llm_default", "heatmap_eta_e_llm_default", "losses_llm_default_a0.5", "self_knowledge_llm_default_a0.5"},
		},
		{name: "every plan unparseable", records: unparsed, want: nil},
		{
			name: "injection only at r = 0, where D is undefined", records: zeroRatioOnly,
			want: []string{"efficiency_llm_default_a0.5", "regret_llm_default_a0.5", "heatmap_eta_u_llm_default", "heatmap_eta_e_llm_default", "losses_llm_default_a0.5", "self_knowledge_llm_default_a0.5"},
		},
		{
			name: "records from before the decomposition, no references: no figure 6 or 7", records: undecomposed,
			want: []string{"efficiency_llm_default_a0.5", "regret_llm_default_a0.5", "heatmap_eta_u_llm_default", "heatmap_eta_e_llm_default"},
		},
		{
			name: "references without a planner: figure 6 per reference, figure 7 of the references alone", records: partialOnly,
			want: []string{
				"efficiency_population_a0.5", "efficiency_self_feasibility_a0.5", "regret_population_a0.5", "regret_self_feasibility_a0.5",
				"heatmap_eta_u_population", "heatmap_eta_e_population", "heatmap_eta_u_self_feasibility", "heatmap_eta_e_self_feasibility",
				"losses_population_a0.5", "losses_self_feasibility_a0.5", "self_knowledge_a0.5",
			},
		},
		{
			name: "every reference excluded as no_population: no figure 7", records: noPopulation,
			want: []string{"efficiency_llm_default_a0.5", "regret_llm_default_a0.5", "heatmap_eta_u_llm_default", "heatmap_eta_e_llm_default", "losses_llm_default_a0.5"},
		},
		{
			name: "reference strategies only: one figure each", records: references,
			want: []string{
				"efficiency_random_a0.5", "efficiency_shortest_first_a0.5", "regret_random_a0.5", "regret_shortest_first_a0.5",
				"heatmap_eta_u_random", "heatmap_eta_e_random", "heatmap_eta_u_shortest_first", "heatmap_eta_e_shortest_first",
			},
		},
		{
			name: "nothing solvable: η defined, R̃ not", records: nothingSolvable,
			want: []string{"efficiency_llm_a_a0.5", "heatmap_eta_u_llm_a", "heatmap_eta_e_llm_a"},
		},
		{
			name: "the α closest to the report's headline α", records: twoAlphas, alpha: 0.3,
			want: []string{"efficiency_llm_a_a0.25", "regret_llm_a_a0.25", "heatmap_eta_u_llm_a", "heatmap_eta_e_llm_a"},
		},
		{name: "re-solve totals only", ba: totalsOnly, want: []string{"budget_aware_solvers"}},
		{name: "re-solve only", ba: fixtureBudgetAware(), want: []string{"budget_aware_solvers", "budget_aware_datasets"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := report.BuildWith(tc.records, tc.acc, report.Options{Alpha: tc.alpha})
			figs, err := Draw(rep, tc.ba, Options{DPI: 18}) // only the names matter here: keep rasterizing cheap
			if err != nil {
				t.Fatalf("Draw: %v", err)
			}
			var got []string
			for _, f := range figs {
				got = append(got, f.Name)
				if len(f.SVG) == 0 || len(f.PNG) == 0 || f.Caption == "" || f.Title == "" {
					t.Errorf("%s: empty SVG, PNG, caption or title", f.Name)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("figures:\n got %s\nwant %s", strings.Join(got, " "), strings.Join(tc.want, " "))
			}
		})
	}
}
