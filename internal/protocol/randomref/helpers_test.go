package randomref

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// bruteForce returns V_random for budget b by walking every permutation of
// items under regime U (Heap's algorithm) and averaging.
func bruteForce(items []pool.Item, b int64) float64 {
	return bruteForcePower(items, b, 1)
}

// bruteForceMoment2 returns E[V²] over all orders.
func bruteForceMoment2(items []pool.Item, b int64) float64 {
	return bruteForcePower(items, b, 2)
}

// bruteForcePower returns E[V^p] over all orders, p ∈ {1, 2}.
func bruteForcePower(items []pool.Item, b int64, p int) float64 {
	n := len(items)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	var total float64
	count := 0
	walk := func() {
		rem, v := b, 0.0
		for _, i := range perm {
			if items[i].Cost > rem {
				break
			}
			rem -= items[i].Cost
			v += items[i].Gain()
		}
		if p == 2 {
			v *= v
		}
		total += v
		count++
	}
	// Heap's algorithm, iterative.
	c := make([]int, n)
	walk()
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				perm[0], perm[i] = perm[i], perm[0]
			} else {
				perm[c[i]], perm[i] = perm[i], perm[c[i]]
			}
			walk()
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
	if fact := factorial(n); count != fact {
		panic(fmt.Sprintf("Heap's algorithm produced %d orders, want %d", count, fact))
	}
	return total / float64(count)
}

// factorial returns n!.
func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}

// randomPool returns n items with costs uniform in [1, maxCost], each
// correct with probability 1/2, and values that are 1 when unit is set and
// otherwise uniform in (0, 3].
func randomPool(r *rand.Rand, n int, maxCost int64, unit bool) []pool.Item {
	items := make([]pool.Item, n)
	for i := range items {
		v := 1.0
		if !unit {
			v = 3 * (1 - r.Float64())
		}
		items[i] = pool.Item{
			ID:      fmt.Sprintf("p%d", i+1),
			Cost:    1 + r.Int64N(maxCost),
			Value:   v,
			Correct: r.IntN(2) == 0,
		}
	}
	return items
}

// closeRel reports whether got is within rel of want, relative to |want|
// (absolute when want is 0).
func closeRel(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-300) || got == want
}

func nan() float64 { return math.NaN() }

// mulHiLo returns the high and low halves of x·b.
func mulHiLo(x, b uint64) (uint64, uint64) { return bits.Mul64(x, b) }
