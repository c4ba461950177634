package execution

import "math"

// Step is one raw plan entry as the parser produced it: an id, which may be
// unknown to the pool or repeated, and an allocation, which may be zero or
// negative.
type Step struct {
	// ID names the problem.
	ID string
	// Tokens is the allocation a_i as given.
	Tokens int64
}

// PlannedStep is one step of a normalized plan: a pool item to attempt and its
// allocation, which is always > 0.
type PlannedStep struct {
	// Index is the item's position in the pool.
	Index int
	// ID is the item's id.
	ID string
	// Tokens is the allocation a_i > 0.
	Tokens int64
}

// Plan is a normalized plan: the steps to attempt, in plan order, and the log
// of the raw steps that were removed. Its steps are indices into the Pool it
// was normalized against and must only be run against that Pool.
type Plan struct {
	// Steps are the kept steps, in raw plan order; never nil after Normalize.
	// Their ids are distinct and their allocations positive, so the planned
	// set is S = {Steps[k].Index}.
	Steps []PlannedStep
	// Log lists the removed raw steps in raw plan order; never nil after
	// Normalize.
	Log []Drop
	// PlannedTokens is Σ a over Steps, saturating at math.MaxInt64.
	PlannedTokens int64
	// saturated records that the true sum exceeded math.MaxInt64.
	saturated bool
}

// OverBudget reports whether Σ a > budget (SPEC §1: such a plan is still
// executed, and flagged). It is exact even when PlannedTokens saturated.
func (pl Plan) OverBudget(budget int64) bool {
	return pl.saturated || pl.PlannedTokens > budget
}

// Allocations returns the allocation of every pool item, indexed like the
// pool: a_i for planned items and 0 for the others (SPEC §1: S = {i : a_i > 0}).
func (pl Plan) Allocations(p *Pool) []int64 {
	a := make([]int64, p.Len())
	for _, s := range pl.Steps {
		a[s.Index] = s.Tokens
	}
	return a
}

// Stack scratch sizes: plans and pools up to these sizes normalize without
// allocating scratch (the default pool has 30 items).
const (
	smallPlan = 64
	smallPool = 512
)

// Normalize applies SPEC §2 step 3 to a raw plan against a Pool: it is
// NormalizeIDs over the Pool's ids, matched exactly by Pool.Lookup. Each raw
// step is checked by these rules, in order, and the first that applies drops
// it:
//
//  1. an id not in the pool is dropped (DropUnknownID);
//  2. an id already seen earlier in the raw plan is dropped (DropDuplicate):
//     the first occurrence wins even when it is itself dropped by rule 3 or 4,
//     so an item whose first occurrence has allocation ≤ 0 is not attempted;
//  3. a negative allocation becomes 0 and the step is dropped (DropNegative);
//  4. an allocation of 0 is dropped: the item is not attempted (DropZero).
//
// The other steps are kept in their raw order. A nil Pool has no ids, so
// every step is dropped as unknown. Normalize only reads p and is safe for
// concurrent use.
func Normalize(p *Pool, plan []Step) Plan {
	return normalize(p.Len(), p, nil, plan)
}

// NormalizeIDs applies the rules of Normalize (SPEC §2 step 3) to a raw plan
// over a pool known only by its ids, for callers that have no Pool (the
// plan parser, which knows ids but no costs). n is the number of pool items
// and lookup returns the pool index in [0, n) of an id and whether the id is
// in the pool; an index outside [0, n) is taken as "not in the pool" (n is
// capped at math.MaxInt32, the largest Pool).
//
// Kept steps carry the raw step's ID unchanged (PlannedStep.ID = Step.ID), so
// lookup should match ids exactly, as Pool.Lookup does: a caller that
// accepts other spellings of an id resolves them to the pool's id before
// calling NormalizeIDs. Two raw steps are the same item when lookup returns
// the same index for them.
//
// A nil lookup finds no id. NormalizeIDs calls lookup once per raw step, in
// plan order, and allocates
// only its result (plus scratch for plans over 64 steps or pools over 512
// items). It is safe for concurrent use when lookup is.
func NormalizeIDs(n int, lookup func(id string) (int, bool), plan []Step) Plan {
	return normalize(n, nil, lookup, plan)
}

// normalize implements Normalize and NormalizeIDs. Ids are looked up with
// lookup when it is not nil, else in p (Normalize's direct path, which
// saves an indirect call per step).
func normalize(n int, p *Pool, lookup func(id string) (int, bool), plan []Step) Plan {
	n = min(max(n, 0), math.MaxInt32) // pool indices are stored as int32
	// code[k] is the pool index of raw step k when it is kept, else −reason.
	var codeBuf [smallPlan]int32
	var code []int32
	if len(plan) <= smallPlan {
		code = codeBuf[:len(plan)]
	} else {
		code = make([]int32, len(plan))
	}
	var seenBuf [smallPool / 64]uint64
	var seen []uint64
	if words := (n + 63) / 64; words <= len(seenBuf) {
		seen = seenBuf[:words]
	} else {
		seen = make([]uint64, words)
	}

	kept := 0
	var total int64
	saturated := false
	for k, s := range plan {
		var i int
		var ok bool
		if lookup != nil {
			i, ok = lookup(s.ID)
		} else {
			i, ok = p.Lookup(s.ID)
		}
		switch {
		case !ok || i < 0 || i >= n:
			code[k] = -int32(DropUnknownID)
			continue
		case seen[i>>6]&(1<<(i&63)) != 0:
			code[k] = -int32(DropDuplicate)
			continue
		}
		seen[i>>6] |= 1 << (i & 63)
		switch {
		case s.Tokens < 0:
			code[k] = -int32(DropNegative)
		case s.Tokens == 0:
			code[k] = -int32(DropZero)
		default:
			code[k] = int32(i)
			kept++
			if total > math.MaxInt64-s.Tokens {
				total, saturated = math.MaxInt64, true
			} else {
				total += s.Tokens
			}
		}
	}

	out := Plan{
		Steps:         make([]PlannedStep, kept),
		Log:           make([]Drop, len(plan)-kept),
		PlannedTokens: total,
		saturated:     saturated,
	}
	ks, kd := 0, 0
	for k, s := range plan {
		if c := int(code[k]); c >= 0 {
			out.Steps[ks] = PlannedStep{Index: c, ID: s.ID, Tokens: s.Tokens}
			ks++
		} else {
			out.Log[kd] = Drop{Index: k, ID: s.ID, Tokens: s.Tokens, Reason: DropReason(-c)}
			kd++
		}
	}
	return out
}
