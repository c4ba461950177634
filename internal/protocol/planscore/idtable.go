package planscore

import (
	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/pool"
)

// idTable finds the elements of a slice of at most smallPool elements (the
// items of a pool, the steps of a plan) by id, the last element of a
// repeated id (as a map filled in slice order would): open addressing over a
// hash of a few bytes of the id, in a table small enough for the stack. Ids
// that collide cost more probes, never a wrong index.
type idTable struct {
	slot [2 * smallPool]uint8 // element index + 1; 0: empty
}

// itemID and stepID are the ids idTable indexes by.
func itemID(it pool.Item) string      { return it.ID }
func stepID(st execution.Step) string { return st.ID }

// newIDTable indexes xs (at most smallPool) by id.
func newIDTable[T any](xs []T, id func(T) string) idTable {
	var t idTable
	for i, x := range xs {
		key := id(x)
		h := idHash(key)
		for ; t.slot[h] != 0; h = (h + 1) % len(t.slot) {
			if id(xs[t.slot[h]-1]) == key {
				break // a repeated id: the later element wins
			}
		}
		t.slot[h] = uint8(i + 1)
	}
	return t
}

// findID returns the index of the last element of xs (those t indexes)
// whose id is key, or -1.
func findID[T any](t *idTable, xs []T, id func(T) string, key string) int {
	for h := idHash(key); t.slot[h] != 0; h = (h + 1) % len(t.slot) {
		if i := int(t.slot[h]) - 1; id(xs[i]) == key {
			return i
		}
	}
	return -1
}

// idIndex finds the elements of xs by id, the last element of a repeated
// id (as a map filled in slice order would): in an idTable on the caller's
// stack for up to smallPool elements, in a map for more.
type idIndex[T any] struct {
	xs    []T
	id    func(T) string
	table idTable
	m     map[string]int // nil: table indexes xs
}

// newIDIndex indexes xs by id.
func newIDIndex[T any](xs []T, id func(T) string) idIndex[T] {
	x := idIndex[T]{xs: xs, id: id}
	if len(xs) <= smallPool {
		x.table = newIDTable(xs, id)
		return x
	}
	x.m = make(map[string]int, len(xs))
	for i, e := range xs {
		x.m[id(e)] = i
	}
	return x
}

// find returns the index of the last element of xs whose id is key, or -1.
func (x *idIndex[T]) find(key string) int {
	if x.m == nil {
		return findID(&x.table, x.xs, x.id, key)
	}
	if i, ok := x.m[key]; ok {
		return i
	}
	return -1
}

// idHash hashes id's length and its first, middle and last bytes into a
// slot of an idTable.
func idHash(id string) int {
	h := uint(len(id))
	if n := len(id); n > 0 {
		h = h*31 + uint(id[0])
		h = h*31 + uint(id[n/2])
		h = h*31 + uint(id[n-1])
	}
	h ^= h >> 7
	return int(h % (2 * smallPool))
}
