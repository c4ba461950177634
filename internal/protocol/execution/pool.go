package execution

import (
	"fmt"
	"hash/maphash"
	"math"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// Pool is one solver's pool as the executor sees it: the gradeable items in
// pool order and an id → index lookup built once. A Pool is immutable after
// NewPool returns, so any number of goroutines may use it at once.
type Pool struct {
	items []pool.Item
	// slots is the lookup: an open-addressing hash table (linear probing,
	// at most half full) of pool index + 1, 0 for an empty slot. It is one
	// allocation where a map of a 30-item pool is several, and a Pool is
	// built for every ExecutePlan call.
	slots []int32
}

// idSeed seeds the lookup's hash; it is random per process, so callers
// cannot choose ids that collide.
var idSeed = maphash.MakeSeed()

// NewPool copies items into a Pool. It returns an error when an id is empty
// or repeated, a cost is not positive, a value is not finite and positive
// (SPEC §1: c ∈ ℤ>0, v > 0), or there are more than math.MaxInt32 items.
func NewPool(items []pool.Item) (*Pool, error) {
	return newPool(items, true)
}

// AdoptPool is NewPool for items the caller will not change while the Pool
// is in use (a slice it made for the Pool): the Pool keeps items instead of
// a copy.
func AdoptPool(items []pool.Item) (*Pool, error) {
	return newPool(items, false)
}

// newPool builds a Pool of items, of a copy of them when copied.
func newPool(items []pool.Item, copied bool) (*Pool, error) {
	if len(items) > math.MaxInt32 {
		return nil, fmt.Errorf("execution: %d items exceed the supported maximum", len(items))
	}
	slots := 2 // a power of two ≥ 2·len(items)
	for slots < 2*len(items) {
		slots <<= 1
	}
	p := &Pool{items: items, slots: make([]int32, slots)}
	if copied {
		p.items = append(make([]pool.Item, 0, len(items)), items...)
	}
	for i, it := range p.items {
		switch {
		case it.ID == "":
			return nil, fmt.Errorf("execution: items[%d]: empty id", i)
		case it.Cost <= 0:
			return nil, fmt.Errorf("execution: items[%d] (%q): cost %d is not positive", i, it.ID, it.Cost)
		case !(it.Value > 0) || math.IsInf(it.Value, 1):
			return nil, fmt.Errorf("execution: items[%d] (%q): value %v is not finite and positive", i, it.ID, it.Value)
		}
		slot, j := p.find(it.ID)
		if j >= 0 {
			return nil, fmt.Errorf("execution: items[%d]: id %q repeats items[%d]", i, it.ID, j)
		}
		p.slots[slot] = int32(i) + 1
	}
	return p, nil
}

// find returns the pool index of id, −1 when it is not in p, and the slot
// where id is or would be put.
func (p *Pool) find(id string) (slot, index int) {
	mask := uint64(len(p.slots) - 1)
	for h := maphash.String(idSeed, id) & mask; ; h = (h + 1) & mask {
		j := p.slots[h]
		if j == 0 {
			return int(h), -1
		}
		if p.items[j-1].ID == id {
			return int(h), int(j - 1)
		}
	}
}

// Len returns the number of items in the pool. A nil Pool is empty.
func (p *Pool) Len() int {
	if p == nil {
		return 0
	}
	return len(p.items)
}

// Item returns the item at pool index i; it panics when i is out of range.
func (p *Pool) Item(i int) pool.Item { return p.items[i] }

// Items returns a copy of the items in pool order.
func (p *Pool) Items() []pool.Item {
	if p == nil {
		return nil
	}
	out := make([]pool.Item, len(p.items))
	copy(out, p.items)
	return out
}

// Lookup returns the pool index of id and whether id is in the pool. Ids match
// exactly (SPEC §2 step 2's canonical forms are the parser's job). A nil
// Pool holds no ids.
func (p *Pool) Lookup(id string) (int, bool) {
	if p == nil {
		return 0, false
	}
	if _, i := p.find(id); i >= 0 {
		return i, true
	}
	return 0, false
}
