package protoconv

import (
	"fmt"
	"hash/maphash"
	"math"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/protocol/pool"
)

// Limits of pool items.
const (
	// MaxItems is the largest pool one request may carry.
	MaxItems = 100_000
	// MaxIDBytes is the longest item id (pool.IDProblem).
	MaxIDBytes = pool.MaxIDBytes
	// MaxCost is the largest cost of one item; with MaxItems it keeps every
	// sum of costs far from overflowing.
	MaxCost = 1_000_000_000_000
	// MaxValue is the largest value of one item.
	MaxValue = 1e12
)

// ValidateItems adds a violation for every invalid item under field (e.g.
// "items" gives "items[3].cost") and reports whether all items are valid.
func ValidateItems(v *apperr.Violations, field string, items []*triagev1.GroundTruthItem) bool {
	if len(items) > MaxItems {
		v.Add(field, "at most %d items per request, got %d", MaxItems, len(items))
		return false
	}
	before := v.Len()
	var seen map[string]int // only when an id may repeat: most pools have none
	if mayRepeat(items) {
		seen = make(map[string]int, len(items))
	}
	// Field names are formatted only for violations: valid items, the usual
	// case, cost no formatting.
	name := func(i int, leaf string) string { return fmt.Sprintf("%s[%d].%s", field, i, leaf) }
	for i, it := range items {
		// The ground-truth store holds ids by the same rule, so an id
		// valid here is one a ground-truth record may have.
		switch id := it.GetId(); {
		case pool.IDProblem(id) != "":
			v.Add(name(i, "id"), "%s", pool.IDProblem(id))
		case seen == nil: // no id repeats
		default:
			if first, dup := seen[id]; dup {
				v.Add(name(i, "id"), "duplicate id %q (first at index %d)", id, first)
			} else {
				seen[id] = i
			}
		}
		if c := it.GetCost(); c <= 0 || c > MaxCost {
			v.Add(name(i, "cost"), "must be a positive number of tokens ≤ %d, got %d", int64(MaxCost), c)
		}
		if it.Value != nil {
			if val := it.GetValue(); math.IsNaN(val) || val <= 0 || val > MaxValue {
				v.Add(name(i, "value"), "must be finite, > 0 and ≤ %g, got %v", MaxValue, val)
			}
		}
	}
	return v.Len() == before
}

// smallPool is the most items mayRepeat checks without allocating.
const smallPool = 64

// idSeed seeds mayRepeat's hash.
var idSeed = maphash.MakeSeed()

// mayRepeat reports whether two of items may share an id: false when no
// two do, as a hash table on the stack finds for pools of up to smallPool
// items; true when two do, or the pool is larger. ValidateItems, called
// for every request that carries a pool (and by a Scoring service twice),
// then builds no map for a valid pool.
func mayRepeat(items []*triagev1.GroundTruthItem) bool {
	if len(items) > smallPool {
		return true
	}
	var slots [2 * smallPool]uint8 // item index + 1; 0 is empty
	const mask = len(slots) - 1
	for i, it := range items {
		id := it.GetId()
		for h := int(maphash.String(idSeed, id)) & mask; ; h = (h + 1) & mask {
			j := slots[h]
			if j == 0 {
				slots[h] = uint8(i + 1)
				break
			}
			if items[j-1].GetId() == id {
				return true
			}
		}
	}
	return false
}

// PoolItems converts validated items; an unset value means 1.
func PoolItems(items []*triagev1.GroundTruthItem) []pool.Item {
	return AppendPoolItems(make([]pool.Item, 0, len(items)), items)
}

// AppendPoolItems appends the conversions of items (as PoolItems) to dst,
// for callers that reuse dst across calls.
func AppendPoolItems(dst []pool.Item, items []*triagev1.GroundTruthItem) []pool.Item {
	for _, it := range items {
		value := 1.0
		if it.Value != nil {
			value = it.GetValue()
		}
		dst = append(dst, pool.Item{ID: it.GetId(), Cost: it.GetCost(), Value: value, Correct: it.GetCorrect()})
	}
	return dst
}

// GroundTruthItems converts pool items back to the API's items, each with
// its value set.
func GroundTruthItems(items []pool.Item) []*triagev1.GroundTruthItem {
	out := make([]*triagev1.GroundTruthItem, len(items))
	for i, it := range items {
		out[i] = &triagev1.GroundTruthItem{Id: it.ID, Cost: it.Cost, Correct: it.Correct, Value: &it.Value}
	}
	return out
}
