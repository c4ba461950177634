package partialref

import (
	"errors"
	"slices"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// The worked pool: the solver's own (c, y) and the population's records.
//
//	item  c    y   records              p̂    ĉ
//	a     100  1   (100,1) (300,0)      1/2  200
//	b     200  0   (100,1)              1    100
//	c     300  1   none                 1/2  500/3  (pool means)
//	d     50   1   (100,0) (200,0) (600,0) 0  200
//
// Σc = 650, Σĉ = 2000/3, scale 0.975: ĉ' = 195, 97.5, 162.5, 195 and
// ⌈ĉ'⌉ = 195, 98, 163, 195.
var (
	workedItems = []pool.Item{
		{ID: "a", Cost: 100, Value: 1, Correct: true},
		{ID: "b", Cost: 200, Value: 1},
		{ID: "c", Cost: 300, Value: 1, Correct: true},
		{ID: "d", Cost: 50, Value: 1, Correct: true},
	}
	workedPopulation = [][]Record{
		{{100, true}, {300, false}},
		{{100, true}},
		nil,
		{{100, false}, {200, false}, {600, false}},
	}
)

func TestPlansWorked(t *testing.T) {
	e, err := Estimate(workedItems, workedPopulation)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		budget int64
		want   Plans
	}{
		{300, Plans{
			// p̂/ĉ': b 1/97.5, c 0.5/162.5, a 0.5/195; a does not fit after b, c.
			vocab.Population: {{ID: "b", Tokens: 98}, {ID: "c", Tokens: 163}},
			// y = 1 by ĉ': c, then a and d tied at 195 (pool order); neither fits.
			vocab.SelfFeasibility: {{ID: "c", Tokens: 163}},
			// p̂/c: a and b tied at 1/200 (pool order), then c; c does not fit.
			vocab.SelfCost: {{ID: "a", Tokens: 100}, {ID: "b", Tokens: 200}},
		}},
		{400, Plans{
			vocab.Population:      {{ID: "b", Tokens: 98}, {ID: "c", Tokens: 163}},
			vocab.SelfFeasibility: {{ID: "c", Tokens: 163}, {ID: "a", Tokens: 195}},
			vocab.SelfCost:        {{ID: "a", Tokens: 100}, {ID: "b", Tokens: 200}},
		}},
		// A misfit is passed over, not a stop: at 170 b (98) fits, c (163)
		// does not, a (195) does not; self_cost: a (100) fits, b (200) and c
		// do not.
		{170, Plans{
			vocab.Population:      {{ID: "b", Tokens: 98}},
			vocab.SelfFeasibility: {{ID: "c", Tokens: 163}},
			vocab.SelfCost:        {{ID: "a", Tokens: 100}},
		}},
		{0, Plans{vocab.Population: {}, vocab.SelfFeasibility: {}, vocab.SelfCost: {}}},
	}
	for _, tt := range tests {
		got := e.Plans(tt.budget)
		for _, s := range vocab.PartialReferences() {
			if !slices.Equal(got[s], tt.want[s]) {
				t.Errorf("B = %d, %s = %v, want %v", tt.budget, s, got[s], tt.want[s])
			}
		}
	}
}

func TestEstimateNoPopulation(t *testing.T) {
	_, err := Estimate(workedItems, make([][]Record, len(workedItems)))
	if !errors.Is(err, ErrNoPopulation) {
		t.Fatalf("err = %v, want ErrNoPopulation", err)
	}
	if _, err := Estimate(workedItems, nil); err == nil {
		t.Fatal("mismatched population: nil error")
	}
}

// TestPlansFit checks that every plan fits its budget, names each item at
// most once and only items with the strategy's required knowledge, on
// random pools.
func TestPlansFit(t *testing.T) {
	for seed := range uint64(500) {
		items, population := randomPool(seed)
		e, err := Estimate(items, population)
		if errors.Is(err, ErrNoPopulation) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		total := pool.TotalCost(items)
		for _, budget := range []int64{0, total / 4, total / 2, total} {
			for s, steps := range e.Plans(budget) {
				var sum int64
				seen := map[string]bool{}
				for _, st := range steps {
					if st.Tokens <= 0 || seen[st.ID] {
						t.Fatalf("seed %d %s: bad step %v in %v", seed, s, st, steps)
					}
					seen[st.ID] = true
					sum += st.Tokens
				}
				if sum > budget {
					t.Fatalf("seed %d %s: Σa = %d > B = %d", seed, s, sum, budget)
				}
				if s == vocab.SelfFeasibility {
					for _, st := range steps {
						if !itemByID(items, st.ID).Correct {
							t.Fatalf("seed %d: self_feasibility plans unsolved %s", seed, st.ID)
						}
					}
				}
			}
		}
	}
}

// TestScaleIsOwnTotal checks ĉ' sums to the solver's own total cost.
func TestScaleIsOwnTotal(t *testing.T) {
	e, err := Estimate(workedItems, workedPopulation)
	if err != nil {
		t.Fatal(err)
	}
	sum := e.scaled[0]
	for _, r := range e.scaled[1:] {
		sum = sum.Add(sum, r)
	}
	if !sum.IsInt() || sum.Num().Int64() != pool.TotalCost(workedItems) {
		t.Errorf("Σĉ' = %v, want %d", sum, pool.TotalCost(workedItems))
	}
}

func itemByID(items []pool.Item, id string) pool.Item {
	for _, it := range items {
		if it.ID == id {
			return it
		}
	}
	return pool.Item{}
}

// randomPool draws a small pool and population from a seed.
func randomPool(seed uint64) ([]pool.Item, [][]Record) {
	x := seed*6364136223846793005 + 1442695040888963407
	next := func(n uint64) uint64 {
		x ^= x >> 33
		x *= 0xff51afd7ed558ccd
		x ^= x >> 29
		return x % n
	}
	n := 1 + int(next(12))
	items := make([]pool.Item, n)
	population := make([][]Record, n)
	for i := range items {
		items[i] = pool.Item{ID: string(rune('a' + i)), Cost: int64(1 + next(1000)), Value: 1, Correct: next(2) == 0}
		for range next(4) {
			population[i] = append(population[i], Record{Cost: int64(1 + next(1000)), Correct: next(2) == 0})
		}
	}
	return items, population
}
