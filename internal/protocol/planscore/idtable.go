package planscore

import "github.com/triage-eval/triage/internal/protocol/pool"

// idTable finds the items of a pool of at most smallPool items by id, the
// last item of a repeated id (as a map filled in pool order would): open
// addressing over a hash of a few bytes of the id, in a table small enough
// for the stack. Ids that collide cost more probes, never a wrong index.
type idTable struct {
	slot [2 * smallPool]uint8 // item index + 1; 0: empty
}

// newIDTable indexes items (at most smallPool).
func newIDTable(items []pool.Item) idTable {
	var t idTable
	for i, it := range items {
		h := idHash(it.ID)
		for ; t.slot[h] != 0; h = (h + 1) % len(t.slot) {
			if items[t.slot[h]-1].ID == it.ID {
				break // a repeated id: the later item wins
			}
		}
		t.slot[h] = uint8(i + 1)
	}
	return t
}

// find returns the index of the last item of items (those of newIDTable)
// whose id is id, or -1.
func (t *idTable) find(items []pool.Item, id string) int {
	for h := idHash(id); t.slot[h] != 0; h = (h + 1) % len(t.slot) {
		if i := int(t.slot[h]) - 1; items[i].ID == id {
			return i
		}
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
