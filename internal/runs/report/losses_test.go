package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// planPool is one pool of a losses test: its values, and whether its
// records carry the decomposition (and how far off their enforcement is).
type planPool struct {
	oracle, vs, vu, ve float64
	decomposed         bool
	enforcementOff     float64
	precision          *float64
}

// planRecords returns a pool's U and E records for dataset d, scored as a
// grid cell stores them.
func planRecords(d string, pool int, p planPool) []ScoreRecord {
	var out []ScoreRecord
	for _, reg := range []struct {
		name  string
		value float64
	}{{"U", p.vu}, {"E", p.ve}} {
		s := metrics.Score(reg.value, p.oracle, p.oracle/4)
		r := ScoreRecord{
			Model: "m", Mode: "standard", Dataset: d, Pool: pool, Alpha: 0.5, Variant: "default", Strategy: "llm", Regime: reg.name,
			Value: reg.value, Oracle: p.oracle, Random: p.oracle / 4, Eta: &s.Eta, Regret: s.Regret, RegretDefined: s.RegretDefined,
			Precision: p.precision,
		}
		if p.decomposed {
			l, _ := metrics.Decompose(p.oracle, p.vs, p.vu, p.ve)
			enf := l.Enforcement + p.enforcementOff
			r.Selection, r.Order, r.Enforcement = &l.Selection, &l.Order, &enf
		}
		out = append(out, r)
	}
	return out
}

func TestRegretDecompositionPerCell(t *testing.T) {
	half := 0.5
	tests := []struct {
		name                                  string
		pools                                 []planPool
		wantN, wantUndecomposed, wantMismatch int
		wantSelection, wantOrder, wantEnf     float64
		wantPrecisionN                        int
	}{
		{
			name: "decomposed pools, one with a negative enforcement",
			pools: []planPool{
				{oracle: 4, vs: 3, vu: 2, ve: 1, decomposed: true, precision: &half},
				{oracle: 4, vs: 4, vu: 2, ve: 3, decomposed: true},
			},
			wantN: 2, wantSelection: 0.125, wantOrder: 0.375, wantEnf: 0, wantPrecisionN: 1,
		},
		{
			name: "a pool with V_oracle = 0 has no decomposition and is not counted missing",
			pools: []planPool{
				{oracle: 4, vs: 3, vu: 2, ve: 1, decomposed: true},
				{oracle: 0, precision: &half},
			},
			wantN: 1, wantSelection: 0.25, wantOrder: 0.25, wantEnf: 0.25, wantPrecisionN: 1,
		},
		{
			name: "a record from an older build: undecomposed",
			pools: []planPool{
				{oracle: 4, vs: 3, vu: 2, ve: 1, decomposed: true},
				{oracle: 4, vs: 4, vu: 4, ve: 4},
			},
			wantN: 1, wantUndecomposed: 1, wantSelection: 0.25, wantOrder: 0.25, wantEnf: 0.25,
		},
		{
			name: "an enforcement that breaks R̃_E: counted in the E cell, still averaged",
			pools: []planPool{
				{oracle: 4, vs: 3, vu: 2, ve: 1, decomposed: true, enforcementOff: 1e-9},
			},
			wantN: 1, wantMismatch: 1, wantSelection: 0.25, wantOrder: 0.25, wantEnf: 0.25 + 1e-9,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var recs []ScoreRecord
			for i, p := range tt.pools {
				recs = append(recs, planRecords("d", i, p)...)
			}
			rep := Build(recs, nil)
			if len(rep.Cells) != 2 {
				t.Fatalf("%d cells, want U and E", len(rep.Cells))
			}
			for _, c := range rep.Cells {
				mismatch := 0
				if c.Regime == vocab.Enforced {
					mismatch = tt.wantMismatch // only E's identity involves enforcement
				}
				if c.Selection.Mean.N != tt.wantN || c.Undecomposed != tt.wantUndecomposed || c.DecompositionMismatch != mismatch {
					t.Errorf("%s: n %d, undecomposed %d, mismatch %d; want %d, %d, %d", c.Regime,
						c.Selection.Mean.N, c.Undecomposed, c.DecompositionMismatch, tt.wantN, tt.wantUndecomposed, mismatch)
				}
				if c.Selection.Mean.N+c.Undecomposed != c.Regret.N {
					t.Errorf("%s: %d decomposed + %d undecomposed ≠ %d pools of R̃", c.Regime, c.Selection.Mean.N, c.Undecomposed, c.Regret.N)
				}
				for _, m := range []struct {
					name string
					got  metrics.Mean
					want float64
				}{{"selection", c.Selection.Mean, tt.wantSelection}, {"order", c.Order.Mean, tt.wantOrder}, {"enforcement", c.Enforcement.Mean, tt.wantEnf}} {
					if !m.got.Defined || math.Abs(m.got.Value-m.want) > 1e-15 {
						t.Errorf("%s: %s %+v, want %v", c.Regime, m.name, m.got, m.want)
					}
				}
				if c.Precision.Mean.N != tt.wantPrecisionN {
					t.Errorf("%s: precision over %d pools, want %d", c.Regime, c.Precision.Mean.N, tt.wantPrecisionN)
				}
				if tt.wantN >= 2 != c.Selection.CI.Defined {
					t.Errorf("%s: selection interval %+v over %d pools", c.Regime, c.Selection.CI, tt.wantN)
				}
			}
		})
	}
}

// TestRegretDecompositionOverDatasets: a macro cell averages the
// datasets' means as for R̃ and names a dataset without a decomposition.
func TestRegretDecompositionOverDatasets(t *testing.T) {
	recs := slices.Concat(
		planRecords("a", 0, planPool{oracle: 4, vs: 3, vu: 2, ve: 1, decomposed: true}),
		planRecords("a", 1, planPool{oracle: 4, vs: 4, vu: 4, ve: 4, decomposed: true}),
		planRecords("b", 0, planPool{oracle: 2, vs: 2, vu: 1, ve: 1, decomposed: true}),
		planRecords("c", 0, planPool{oracle: 2, vs: 2, vu: 1, ve: 1}),
	)
	rep := Build(recs, nil)
	m, ok := rep.Macro("m", "standard", 0.5, "default", vocab.LLM, vocab.Enforced)
	if !ok {
		t.Fatal("no macro cell")
	}
	// a: selection (0.25 + 0) / 2; b: 0.
	if got := m.Selection.Mean; !got.Defined || got.Value != 0.0625 || got.N != 3 {
		t.Errorf("selection over datasets %+v, want 0.0625 over 3 pools", got)
	}
	if !slices.Equal(m.Selection.Missing, []string{"c"}) || m.Undecomposed != 1 {
		t.Errorf("missing %v, undecomposed %d; want [c], 1", m.Selection.Missing, m.Undecomposed)
	}
	if !m.Selection.CI.Defined {
		t.Error("no stratified interval over 3 pools")
	}
}

func TestDominantLoss(t *testing.T) {
	mean := func(x float64) PoolMean { return PoolMean{Mean: metrics.Mean{Value: x, N: 3, Defined: true}} }
	tests := []struct {
		name      string
		row       HeadlineRow
		wantLoss  Loss
		wantShare float64
		wantOK    bool
	}{
		{"selection", HeadlineRow{Selection: mean(0.3), Order: mean(0.1), Enforcement: mean(0.1)}, SelectionLoss, 0.6, true},
		{"enforcement", HeadlineRow{Selection: mean(0.1), Order: mean(0.1), Enforcement: mean(0.3)}, EnforcementLoss, 0.6, true},
		{"negative enforcement", HeadlineRow{Selection: mean(0.1), Order: mean(0.2), Enforcement: mean(-0.1)}, OrderLoss, 1, true},
		{"nothing lost", HeadlineRow{Selection: mean(0), Order: mean(0), Enforcement: mean(0)}, "", 0, false},
		{"a sum that rounds to 0", HeadlineRow{Selection: mean(0.3), Order: mean(0.2), Enforcement: mean(-0.4996)}, "", 0, false},
		{"ties: the first in SPEC order", HeadlineRow{Selection: mean(0.1), Order: mean(0.3), Enforcement: mean(0.3)}, OrderLoss, 3.0 / 7, true},
		{"undefined", HeadlineRow{Selection: mean(0.1), Order: mean(0.2)}, "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loss, share, ok := tt.row.DominantLoss()
			if loss != tt.wantLoss || math.Abs(share-tt.wantShare) > 1e-12 || ok != tt.wantOK {
				t.Errorf("DominantLoss() = %q, %v, %v; want %q, %v, %v", loss, share, ok, tt.wantLoss, tt.wantShare, tt.wantOK)
			}
		})
	}
}

// TestDominantLossText checks the summary's "where value is lost" entry:
// every loss with its value and signed share of R̃_E, all of them largest
// first (those that print alike in SPEC order: selection, order,
// enforcement); a negative enforcement loss is shown as it is (its share
// negative, the others above 100% together) and reported, never clamped
// or rescaled; an R̃_E that rounds to 0.000 gives no shares.
func TestDominantLossText(t *testing.T) {
	mean := func(x float64) PoolMean { return PoolMean{Mean: metrics.Mean{Value: x, N: 3, Defined: true}} }
	row := func(sel, ord, enf float64) HeadlineRow {
		return HeadlineRow{Selection: mean(sel), Order: mean(ord), Enforcement: mean(enf)}
	}
	tests := []struct {
		name      string
		row       HeadlineRow
		want      string
		wantFlags lossTextFlags
	}{
		{"all positive", row(0.3, 0.1, 0.1),
			"selection 0.300 (60%), order 0.100 (20%), enforcement 0.100 (20%) of R̃_E 0.500", lossTextFlags{}},
		{"the demo's: order, enforcement, selection", row(0, 0.541, 0.374),
			"order 0.541 (59%), enforcement 0.374 (41%), selection 0.000 (0%) of R̃_E 0.915", lossTextFlags{}},
		{"in reverse SPEC order", row(0.1, 0.2, 0.3),
			"enforcement 0.300 (50%), order 0.200 (33%), selection 0.100 (17%) of R̃_E 0.600", lossTextFlags{}},
		{"ties in SPEC order", row(0.2, 0.2, 0.2),
			"selection 0.200 (33%), order 0.200 (33%), enforcement 0.200 (33%) of R̃_E 0.600", lossTextFlags{}},
		{"alike at 3 decimals: SPEC order", row(0.1996, 0.2004, 0),
			"selection 0.200 (50%), order 0.200 (50%), enforcement 0.000 (0%) of R̃_E 0.400", lossTextFlags{}},
		{"negative enforcement", row(0.1, 0.2, -0.1),
			"order 0.200 (100%), selection 0.100 (50%), enforcement -0.100 (-50%) of R̃_E 0.200", lossTextFlags{negative: true}},
		{"enforcement offsets order", row(0, 0.2, -0.2),
			"nothing lost (R̃_E 0.000: order 0.200, selection 0.000, enforcement -0.200)", lossTextFlags{negative: true, noShares: true}},
		{"R̃_E 0.0004 from offsetting losses: no shares", row(0.3, 0.2, -0.4996),
			"nothing lost (R̃_E 0.000: selection 0.300, order 0.200, enforcement -0.500)", lossTextFlags{negative: true, noShares: true}},
		{"R̃_E 0.0003, every loss 0.000", row(0.0002, 0.0001, 0),
			"nothing lost (R̃_E 0.000)", lossTextFlags{}},
		{"R̃_E 0.0006 prints 0.001: shares", row(0.0006, 0, 0),
			"selection 0.001 (100%), order 0.000 (0%), enforcement 0.000 (0%) of R̃_E 0.001", lossTextFlags{}},
		{"nothing lost", row(0, 0, 0),
			"nothing lost (R̃_E 0.000)", lossTextFlags{}},
		{"a hair below 0 shows as 0", row(0.3, 0.2, -0.0001),
			"selection 0.300 (60%), order 0.200 (40%), enforcement 0.000 (0%) of R̃_E 0.500", lossTextFlags{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, flags := dominantLossText(tt.row)
			if got != tt.want || flags != tt.wantFlags {
				t.Errorf("dominantLossText() = %q, %+v; want %q, %+v", got, flags, tt.want, tt.wantFlags)
			}
		})
	}
}

// TestSummaryLossNotes: the summary's loss column and the note that
// explains it, each on a run that needs the note and on one that does not.
//   - A run whose R̃_E is 0.00001 (V_E a hair below V_oracle, enforcement
//     offsetting selection and order) shows its losses without shares,
//     which would be 1,000,000%, and says why.
//   - A run whose enforced allocations recover value (V_E > V_U) shows the
//     negative enforcement loss and its share, the others summing to 200%,
//     and explains it.
func TestSummaryLossNotes(t *testing.T) {
	tests := []struct {
		name              string
		special, ordinary planPool
		wantSpecial       string
		wantOrdinary      string
		note              string
	}{
		{
			name: "no shares of a 0.000",
			// V_oracle 10000, V_S 9000, V_U 8000: selection = order = 0.1;
			// V_E 9999.9: enforcement = -0.19999, R̃_E = 0.00001.
			special:      planPool{oracle: 10000, vs: 9000, vu: 8000, ve: 9999.9, decomposed: true},
			ordinary:     planPool{oracle: 4, vs: 3, vu: 2, ve: 1, decomposed: true},
			wantSpecial:  "nothing lost (R̃_E 0.000: selection 0.100, order 0.100, enforcement -0.200)",
			wantOrdinary: "selection 0.250 (33%), order 0.250 (33%), enforcement 0.250 (33%) of R̃_E 0.750",
			note:         noteNoShares,
		},
		{
			name: "a negative loss",
			// V_oracle 4, V_S 3, V_U 2, V_E 3: selection = order = 0.25,
			// enforcement = -0.25, R̃_E = 0.25.
			special:      planPool{oracle: 4, vs: 3, vu: 2, ve: 3, decomposed: true},
			ordinary:     planPool{oracle: 4, vs: 3, vu: 2, ve: 0, decomposed: true},
			wantSpecial:  "selection 0.250 (100%), order 0.250 (100%), enforcement -0.250 (-100%) of R̃_E 0.250",
			wantOrdinary: "enforcement 0.500 (50%), selection 0.250 (25%), order 0.250 (25%) of R̃_E 1.000",
			note:         noteNegativeLoss,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var special, ordinary []ScoreRecord
			for pool := range 3 {
				special = append(special, planRecords("d", pool, tt.special)...)
				ordinary = append(ordinary, planRecords("d", pool, tt.ordinary)...)
			}
			sum := Build(special, nil).SummaryTable(nil)
			col := slices.Index(sum.Header, "where value is lost (regime E)")
			if col < 0 || len(sum.Rows) != 1 {
				t.Fatalf("summary: header %q, %d rows", sum.Header, len(sum.Rows))
			}
			if got := sum.Rows[0][col]; got != tt.wantSpecial {
				t.Errorf("where value is lost: %q, want %q", got, tt.wantSpecial)
			}
			if !strings.Contains(sum.Notes[0], tt.note) {
				t.Errorf("the notes do not explain it: %q", sum.Notes[0])
			}
			sum = Build(ordinary, nil).SummaryTable(nil)
			if got := sum.Rows[0][col]; got != tt.wantOrdinary {
				t.Errorf("the ordinary run: %q, want %q", got, tt.wantOrdinary)
			}
			if strings.Contains(strings.Join(sum.Notes, " "), tt.note) {
				t.Error("a summary that does not need the note carries it")
			}
		})
	}
}
