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

// keyBuffers holds the buffers keys are encoded in, so that a lookup
// allocates nothing: only a miss copies its key into a string, to put the
// answer under.
var keyBuffers = sync.Pool{New: func() any { return new([]byte) }}

// lookup returns the cached references of items at budgets with random's
// options, or, on a miss, the key to put them under ("" when they are too
// large to cache, or there is no cache).
func (c *refCache) lookup(items []*triagev1.GroundTruthItem, budgets []*triagev1.Budget, random *triagev1.RandomReferenceOptions) (resp *triagev1.ComputeReferencesResponse, key string, ok bool) {
	if c == nil {
		return nil, "", false
	}
	buf := keyBuffers.Get().(*[]byte)
	defer keyBuffers.Put(buf)
	b, fits := appendKey((*buf)[:0], items, budgets, random)
	if cap(b) <= maxCachedRequestBytes+64 { // pool only the buffers a cacheable key needs
		*buf = b
	}
	if !fits {
		return nil, "", false
	}
	c.mu.Lock()
	e, ok := c.entries[string(b)] // no copy: the compiler looks the bytes up as they are
	if ok {
		c.order.MoveToFront(e)
		resp = e.Value.(*refEntry).resp
	}
	c.mu.Unlock()
	if ok {
		return resp, "", true
	}
	return nil, string(b), false
}

// appendKey appends to b the cache key of the references of items at
// budgets with random's options: an exact encoding of everything they depend
// on (each item's id, cost, outcome and value, each budget, the
// random-reference options). It reports false, with the encoding cut short,
// when the key would be over maxCachedRequestBytes.
func appendKey(b []byte, items []*triagev1.GroundTruthItem, budgets []*triagev1.Budget, random *triagev1.RandomReferenceOptions) ([]byte, bool) {
	b = protowire.AppendVarint(b, uint64(len(items))) // counts first: the encoding is unambiguous
	for _, it := range items {
		b = protowire.AppendString(b, it.GetId())
		b = protowire.AppendVarint(b, uint64(it.GetCost()))
		b = protowire.AppendVarint(b, protowire.EncodeBool(it.GetCorrect()))
		if it.Value == nil {
			b = append(b, 0)
		} else {
			b = protowire.AppendFixed64(append(b, 1), math.Float64bits(it.GetValue()))
		}
		if len(b) > maxCachedRequestBytes {
			return b, false
		}
	}
	b = protowire.AppendVarint(b, uint64(len(budgets)))
	for _, bg := range budgets {
		switch k := bg.GetKind().(type) {
		case *triagev1.Budget_Tokens:
			b = protowire.AppendVarint(append(b, 1), uint64(k.Tokens))
		case *triagev1.Budget_Alpha:
			b = protowire.AppendFixed64(append(b, 2), math.Float64bits(k.Alpha))
		default:
			b = append(b, 0)
		}
	}
	b = protowire.AppendVarint(b, uint64(random.GetMethod()))
	b = protowire.AppendVarint(b, uint64(random.GetSamples()))
	b = protowire.AppendVarint(b, random.GetSeed())
	return b, len(b) <= maxCachedRequestBytes
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
