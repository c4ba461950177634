package knapsack

import (
	"math/bits"
	"slices"
)

// radixMin is the length below which sortKeys uses a comparison sort.
const radixMin = 256

// sortKeys sorts keys ascending. Long inputs get a stable LSD radix sort on
// bytes, limited to the significant bits of the largest key and skipping
// bytes on which every key agrees: O(n·⌈bits/8⌉) time, n extra words.
func sortKeys(keys []uint64) {
	if len(keys) < radixMin {
		slices.Sort(keys)
		return
	}
	var top uint64
	for _, k := range keys {
		top |= k
	}
	passes := (bits.Len64(top) + 7) / 8
	src, dst := keys, make([]uint64, len(keys))
	var count [256]int
	for p := range passes {
		shift := uint(8 * p)
		clear(count[:])
		for _, k := range src {
			count[byte(k>>shift)]++
		}
		if count[byte(src[0]>>shift)] == len(src) {
			continue // every key has the same byte here
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, k := range src {
			d := byte(k >> shift)
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}
