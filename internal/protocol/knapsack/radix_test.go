package knapsack

import (
	"slices"
	"testing"
)

func TestSortKeys(t *testing.T) {
	r := newRand(5)
	for _, n := range []int{0, 1, 2, radixMin - 1, radixMin, 1000, 20_000} {
		for _, width := range []uint{1, 8, 17, 40, 64} {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = r.Uint64() >> (64 - width)
				if width > 8 && i%3 == 0 {
					keys[i] &^= 0xff00 // make some bytes agree more often
				}
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			sortKeys(keys)
			if !slices.Equal(keys, want) {
				t.Fatalf("n=%d width=%d: sortKeys differs from slices.Sort", n, width)
			}
		}
	}
}
