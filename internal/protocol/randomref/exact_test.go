package randomref

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

func TestExactMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	for inst := range 400 {
		n := inst % 8
		maxCost := []int64{3, 10, 40, 1000}[(inst/8)%4]
		items := randomPool(r, n, maxCost, inst%3 == 0)
		total := pool.TotalCost(items)
		var budgets []int64
		if total <= 60 {
			for b := range total + 2 { // every budget, including the all-fit ones
				budgets = append(budgets, b)
			}
		} else {
			for range 12 {
				budgets = append(budgets, r.Int64N(total+2))
			}
		}
		got, err := Exact(ctx, items, budgets)
		if err != nil {
			t.Fatalf("instance %d: %v", inst, err)
		}
		for i, b := range budgets {
			want := bruteForce(items, b)
			if got[i].Budget != b || got[i].StdErr != 0 || got[i].Samples != 0 {
				t.Errorf("instance %d budget %d: got %+v, want Budget %d, StdErr 0, Samples 0", inst, b, got[i], b)
			}
			if !closeRel(got[i].Mean, want, 1e-12) {
				t.Errorf("instance %d (n=%d) budget %d: Exact = %.17g, brute force = %.17g", inst, n, b, got[i].Mean, want)
			}
		}
	}
}

func TestExactHandPicked(t *testing.T) {
	item := func(c int64, v float64, y bool) pool.Item { return pool.Item{Cost: c, Value: v, Correct: y} }
	tests := []struct {
		name   string
		items  []pool.Item
		budget int64
		want   float64
	}{
		{"empty", nil, 10, 0},
		{"empty zero budget", nil, 0, 0},
		{"zero budget", []pool.Item{item(1, 1, true), item(2, 1, true)}, 0, 0},
		{"nothing solvable", []pool.Item{item(1, 1, false), item(2, 1, false)}, 2, 0},
		// One item costs more than the budget: whenever it comes first
		// (1/3) nothing runs; otherwise the other two run only if the
		// blocker comes last (1/3), else exactly one of them runs (1/3).
		// V = 1/3·2 + 1/3·1 = 1 with unit gains.
		{"blocker", []pool.Item{item(1, 1, true), item(1, 1, true), item(5, 1, true)}, 2, 1},
		// Single item that fits.
		{"single fits", []pool.Item{item(3, 2.5, true)}, 3, 2.5},
		{"single too costly", []pool.Item{item(3, 2.5, true)}, 2, 0},
		// Two items a (cost 2, gain 1) and b (cost 3, gain 10), B = 3: a
		// first → a runs, b stops (1); b first → b runs, a stops (10).
		{"two", []pool.Item{item(2, 1, true), item(3, 10, true)}, 3, 5.5},
		// Incorrect items still consume budget: x (cost 2, wrong), z (cost
		// 2, gain 1), B = 2: whichever comes first runs alone.
		{"wrong consumes", []pool.Item{item(2, 1, false), item(2, 1, true)}, 2, 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Exact(context.Background(), tc.items, []int64{tc.budget})
			if err != nil {
				t.Fatal(err)
			}
			if !closeRel(got[0].Mean, tc.want, 1e-15) {
				t.Errorf("Exact = %v, want %v", got[0].Mean, tc.want)
			}
			if bf := bruteForce(tc.items, tc.budget); !closeRel(bf, tc.want, 1e-15) {
				t.Errorf("brute force = %v, want %v (test table is wrong)", bf, tc.want)
			}
		})
	}
}

// With unit costs exactly min(B, n) items run in every order, so by symmetry
// V_random = B/n · Σg for B < n. n = 63 drives the subset counts close to
// 2^63.
func TestExactLargeCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{40, 62, 63} {
		items := randomPool(r, n, 1, false)
		for _, b := range []int64{1, 2, int64(n) / 2, int64(n) - 1} {
			got, err := Exact(context.Background(), items, []int64{b})
			if err != nil {
				t.Fatal(err)
			}
			want := float64(b) / float64(n) * pool.TotalGain(items)
			if !closeRel(got[0].Mean, want, 1e-12) {
				t.Errorf("n=%d B=%d: Exact = %.17g, want %.17g", n, b, got[0].Mean, want)
			}
		}
	}
}

func TestExactShortcutIsOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 30, 200} { // 200 > MaxExactItems: the shortcut comes first
		items := randomPool(r, n, 8192, false)
		total := pool.TotalCost(items)
		got, err := Exact(context.Background(), items, []int64{total, total + 1, 1 << 62})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range got {
			if e.Mean != pool.TotalGain(items) || e.StdErr != 0 {
				t.Errorf("n=%d B=%d: got %+v, want Mean = TotalGain = %v exactly", n, e.Budget, e, pool.TotalGain(items))
			}
		}
		if err := CheckExact(items, total); err != nil {
			t.Errorf("CheckExact at B = Σc: %v", err)
		}
	}
}

func TestExactBudgetIndependence(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	items := randomPool(r, 20, 500, false)
	total := pool.TotalCost(items)
	budgets := []int64{total / 2, 0, total / 5, total, total / 2, 3 * total / 4, 1}
	all, err := Exact(context.Background(), items, budgets)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range budgets {
		one, err := Exact(context.Background(), items, []int64{b})
		if err != nil {
			t.Fatal(err)
		}
		if one[0] != all[i] {
			t.Errorf("budget %d: alone %+v, in a call with others %+v", b, one[0], all[i])
		}
	}
}

func TestExactLimits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	big := randomPool(r, MaxExactItems+2, 100, true)
	bigTotal := pool.TotalCost(big)
	costly := []pool.Item{{Cost: 1 << 20, Value: 1, Correct: true}, {Cost: 1 << 21, Value: 1, Correct: true}, {Cost: 1 << 23, Value: 1, Correct: true}}
	tests := []struct {
		name   string
		items  []pool.Item
		budget int64
		want   []string // substrings of the error; nil for no error
	}{
		{"too many items", big, bigTotal / 2, []string{"65 items", "MaxExactItems = 63", "by 2", "MonteCarlo"}},
		{"too many items but all fit", big, bigTotal, nil},
		{"too many items but none fit", big, 0, nil},
		// kmax = 2 (2^20 + 2^21 ≤ B), columns B − 2^20 + 1.
		{"table too large", costly, 10_000_000, []string{"2×8951425 cells", "MaxExactCells = 16777216", "by 1125634", "MonteCarlo"}},
		{"table fits", costly, 1 << 22, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			check := CheckExact(tc.items, tc.budget)
			_, exact := Exact(context.Background(), tc.items, []int64{tc.budget})
			for _, err := range []error{check, exact} {
				if tc.want == nil {
					if err != nil {
						t.Errorf("unexpected error: %v", err)
					}
					continue
				}
				if !errors.Is(err, ErrExactLimit) {
					t.Fatalf("error %v does not wrap ErrExactLimit", err)
				}
				for _, s := range tc.want {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q lacks %q", err, s)
					}
				}
			}
		})
	}
}

func TestInvalidInput(t *testing.T) {
	ok := []pool.Item{{Cost: 1, Value: 1, Correct: true}}
	tests := []struct {
		name    string
		items   []pool.Item
		budgets []int64
		samples int
	}{
		{"zero cost", []pool.Item{{ID: "z", Cost: 0, Value: 1}}, []int64{1}, 10},
		{"negative cost", []pool.Item{{Cost: -3, Value: 1}}, []int64{1}, 10},
		{"NaN value", []pool.Item{{Cost: 1, Value: nan()}}, []int64{1}, 10},
		{"cost overflow", []pool.Item{{Cost: 1 << 62, Value: 1}, {Cost: 1 << 62, Value: 1}}, []int64{1}, 10},
		{"negative budget", ok, []int64{5, -1}, 10},
		{"zero samples", ok, []int64{1}, 0},
		{"negative samples", ok, []int64{1}, -5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := MonteCarlo(context.Background(), tc.items, tc.budgets, tc.samples, 1); err == nil {
				t.Error("MonteCarlo: no error")
			}
			if tc.samples <= 0 {
				return // valid input for Exact
			}
			if _, err := Exact(context.Background(), tc.items, tc.budgets); err == nil {
				t.Error("Exact: no error")
			}
			if err := CheckExact(tc.items, tc.budgets[len(tc.budgets)-1]); err == nil {
				t.Error("CheckExact: no error")
			}
		})
	}
}

func TestBinomialRow(t *testing.T) {
	row := binomialRow(62)
	if row[0] != 1 || row[1] != 62 || row[31] != 465428353255261088 || row[62] != 1 {
		t.Errorf("binomialRow(62) = …%d, %d, …, %d, …, %d", row[0], row[1], row[31], row[62])
	}
}
