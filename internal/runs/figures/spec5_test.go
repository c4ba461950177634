package figures

import (
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
)

// TestHeadlineVariantFirstAndDegenerateCaptions: with variants listed A,
// default, B, the figures of variant default come first (SPEC §5: the
// headline figures use it), and a figure whose η means include degenerate
// pools says so in its caption, naming the cells whose pools are all D1.
func TestHeadlineVariantFirstAndDegenerateCaptions(t *testing.T) {
	var recs []report.ScoreRecord
	for _, v := range []string{"A", "default", "B"} {
		for _, d := range []string{"math", "code"} {
			for pool := range 3 {
				for _, regime := range []string{"U", "E"} {
					oracle, random, value := 6.0, 3.0, float64(2+pool)
					if d == "code" {
						oracle, random, value = 0, 0, 0 // nothing solvable: D1
					}
					recs = append(recs, scored(report.ScoreRecord{
						Model: "m", Mode: "standard", Dataset: d, Pool: pool, Alpha: 0.5,
						Variant: v, Strategy: string(vocab.LLM), Regime: regime, Value: value, Oracle: oracle, Random: random,
					}))
				}
			}
		}
	}
	figs, err := Draw(report.Build(recs, nil), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
	}
	want := []string{
		"efficiency_llm_default_a0.5", "efficiency_llm_a_a0.5", "efficiency_llm_b_a0.5",
		"regret_llm_default_a0.5", "regret_llm_a_a0.5", "regret_llm_b_a0.5",
		"heatmap_eta_u_llm_default", "heatmap_eta_e_llm_default",
	}
	if len(names) < len(want) || !slices.Equal(names[:len(want)], want) {
		t.Errorf("figures %q, want them to start %q", names, want)
	}
	for _, f := range figs {
		caption := f.Caption
		switch f.Kind {
		case KindEfficiency, KindEtaHeatmap:
			if !strings.Contains(caption, "3 are degenerate (SPEC §5): 3 D1 (V_oracle = 0") ||
				!strings.Contains(caption, "Every pool is D1, so η = 1 by convention alone, for m [std] on code") {
				t.Errorf("%s caption does not report its degenerate pools: %s", f.Name, caption)
			}
		case KindRegret:
			if strings.Contains(caption, "degenerate") {
				t.Errorf("%s caption mentions degenerate pools, which R̃ leaves out: %s", f.Name, caption)
			}
		}
		if strings.Contains(f.Title+caption, "variant -") {
			t.Errorf("%s names variant -", f.Name)
		}
	}
}
