package scoring

import (
	"container/list"
	"math"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// Bounds of the references cache: an entry is kept only when its request
// encodes in at most maxCachedRequestBytes (pools of a few hundred items)
// and its response in at most maxCachedResponseBytes, so a full cache
// holds at most CacheEntries × 80 KiB (a 30-item pool's entry is about
// 3 KiB).
const (
	maxCachedRequestBytes  = 16 << 10
	maxCachedResponseBytes = 64 << 10
)

// refCache memoizes the Oracle's answers, least recently used out first.
// The references are a pure function of the request (items, budgets,
// random-reference options and seed), and platforms score many plans
// against one pool: every plan after the first gets them without the
// Oracle's work. Cached responses are shared and never changed.
type refCache struct {
	mu      sync.Mutex
	max     int
	entries map[string]*list.Element // request encoding → element of order
	order   *list.List               // of *refEntry, most recent first
}

// refEntry is one cached answer.
type refEntry struct {
	key  string
	resp *triagev1.ComputeReferencesResponse
}

// newRefCache returns a cache of up to max entries; nil (no cache) when max
// is 0.
func newRefCache(max int) *refCache {
	if max <= 0 {
		return nil
	}
	return &refCache{max: max, entries: make(map[string]*list.Element), order: list.New()}
}

// key is the cache key of req: an exact encoding of everything the
// references depend on (each item's id, cost, outcome and value, each
// budget, the random-reference options), or "" when req is too large to
// cache.
func (c *refCache) key(req *triagev1.ComputeReferencesRequest) string {
	if c == nil {
		return ""
	}
	b := make([]byte, 0, 64+24*len(req.GetItems()))
	b = protowire.AppendVarint(b, uint64(len(req.GetItems()))) // counts first: the encoding is unambiguous
	for _, it := range req.GetItems() {
		b = protowire.AppendString(b, it.GetId())
		b = protowire.AppendVarint(b, uint64(it.GetCost()))
		b = protowire.AppendVarint(b, protowire.EncodeBool(it.GetCorrect()))
		if it.Value == nil {
			b = append(b, 0)
		} else {
			b = protowire.AppendFixed64(append(b, 1), math.Float64bits(it.GetValue()))
		}
		if len(b) > maxCachedRequestBytes {
			return ""
		}
	}
	b = protowire.AppendVarint(b, uint64(len(req.GetBudgets())))
	for _, bg := range req.GetBudgets() {
		switch k := bg.GetKind().(type) {
		case *triagev1.Budget_Tokens:
			b = protowire.AppendVarint(append(b, 1), uint64(k.Tokens))
		case *triagev1.Budget_Alpha:
			b = protowire.AppendFixed64(append(b, 2), math.Float64bits(k.Alpha))
		default:
			b = append(b, 0)
		}
	}
	r := req.GetRandom()
	b = protowire.AppendVarint(b, uint64(r.GetMethod()))
	b = protowire.AppendVarint(b, uint64(r.GetSamples()))
	b = protowire.AppendVarint(b, r.GetSeed())
	if len(b) > maxCachedRequestBytes {
		return ""
	}
	return string(b)
}

// get returns the cached answer for key.
func (c *refCache) get(key string) (*triagev1.ComputeReferencesResponse, bool) {
	if c == nil || key == "" {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*refEntry).resp, true
}

// put caches resp for key unless resp is too large.
func (c *refCache) put(key string, resp *triagev1.ComputeReferencesResponse) {
	if c == nil || key == "" || proto.Size(resp) > maxCachedResponseBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.entries[key] = c.order.PushFront(&refEntry{key: key, resp: resp})
	if c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.entries, last.Value.(*refEntry).key)
	}
}
