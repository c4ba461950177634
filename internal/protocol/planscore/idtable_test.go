package planscore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/pool"
)

// mapPlannedItems is plannedItems as a map over the items' ids computes it:
// the reference the stack-held idTable must match.
func mapPlannedItems(in Input) []int64 {
	index := make(map[string]int, len(in.Items))
	for i, it := range in.Items {
		index[it.ID] = i
	}
	alloc := make([]int64, len(in.Items))
	for _, st := range in.Plan {
		if i, ok := index[st.ID]; ok && st.Tokens > 0 {
			alloc[i] = st.Tokens
		}
	}
	return alloc
}

// randomInput draws a pool of n items whose ids come from idSpace names
// (repeats when idSpace < n; colliding hashes when the names share length,
// ends and middle), and a plan of steps over those names and unknown ones,
// some repeated, some not positive.
func randomInput(r *rand.Rand, n, idSpace int, name func(int) string) Input {
	in := Input{Items: make([]pool.Item, n), Unsolvable: make([]bool, n)}
	for i := range in.Items {
		in.Items[i] = pool.Item{ID: name(r.IntN(idSpace)), Cost: 1 + r.Int64N(100), Value: 1, Correct: r.IntN(2) == 0}
		in.Unsolvable[i] = r.IntN(4) == 0
	}
	for range r.IntN(2*n + 1) {
		in.Plan = append(in.Plan, execution.Step{ID: name(r.IntN(idSpace + 3)), Tokens: r.Int64N(120) - 10})
	}
	return in
}

func TestPlannedItemsMatchesMap(t *testing.T) {
	names := []struct {
		name string
		id   func(int) string
	}{
		{"paper", func(i int) string { return fmt.Sprintf("p%d", i+1) }},
		{"colliding", func(i int) string { return fmt.Sprintf("a%03db", i) }}, // same length and ends
		{"empty", func(i int) string { return string(make([]byte, i%3)) }},    // "", NUL bytes
	}
	for _, nm := range names {
		for _, n := range []int{0, 1, 2, 30, smallPool - 1, smallPool, smallPool + 1, 100} {
			for _, idSpace := range []int{max(n, 1), max(n/2, 1), 2 * n} {
				t.Run(fmt.Sprintf("%s/n=%d/ids=%d", nm.name, n, idSpace), func(t *testing.T) {
					r := rand.New(rand.NewPCG(uint64(n), uint64(idSpace)))
					for range 20 {
						in := randomInput(r, n, idSpace, nm.id)
						var buf [smallPool]int64
						for k := range buf {
							buf[k] = -7 // a dirty buffer
						}
						if got, want := plannedItems(in, buf[:0]), mapPlannedItems(in); !slices.Equal(got, want) {
							t.Fatalf("plannedItems = %v, want %v (items %v, plan %v)", got, want, in.Items, in.Plan)
						}
					}
				})
			}
		}
	}
}

func TestDetectionAndWasteMatchesMap(t *testing.T) {
	for _, n := range []int{1, 30, smallPool, 100} {
		r := rand.New(rand.NewPCG(uint64(n), 1))
		for range 50 {
			in := randomInput(r, n, max(n/2, 1), func(i int) string { return fmt.Sprintf("p%d", i) })
			alloc := make(map[string]int64, len(in.Plan))
			for _, st := range in.Plan {
				alloc[st.ID] = st.Tokens
			}
			all := make([]metrics.Allocation, len(in.Items))
			for i, it := range in.Items {
				all[i] = metrics.Allocation{Unsolvable: in.Unsolvable[i], Tokens: alloc[it.ID]}
			}
			var wantD *float64
			if d, ok := metrics.Detection(all); ok {
				wantD = &d
			}
			wantW := metrics.Waste(all)
			gotD, gotW := detectionAndWaste(in)
			if fmt.Sprint(deref(gotD), deref(gotW)) != fmt.Sprint(deref(wantD), wantW) {
				t.Fatalf("n=%d: D, W = %v, %v, want %v, %v", n, deref(gotD), deref(gotW), deref(wantD), wantW)
			}
		}
	}
}
