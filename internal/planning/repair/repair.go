package repair

import (
	"strconv"
	"sync"

	"github.com/triage-eval/triage/internal/protocol/execution"
)

// MaxInput is the longest raw output Repair reads, in bytes; a longer one is
// Unparseable.
const MaxInput = 64 << 20

// Repair turns a planner's raw output into a plan over the pool with these
// ids (SPEC §2); budget, when not nil, sets Result.OverBudget. It builds a
// Matcher for the call: to repair many outputs against one pool, build one
// with NewMatcher and call its Repair. See the package documentation for
// the rules.
func Repair(raw string, poolIDs []string, budget *int64) Result {
	return NewMatcher(poolIDs).Repair(raw, budget)
}

// parsers recycles parse arenas between calls.
var parsers = sync.Pool{New: func() any { return new(parser) }}

// maxPooledNodes bounds the arena kept for reuse.
const maxPooledNodes = 1 << 16

// Repair turns a planner's raw output into a plan over m's pool (SPEC §2);
// budget, when not nil, sets Result.OverBudget. It never panics, reads
// nothing but its arguments, and returns the same Result for the same
// arguments. Time is about linear in len(raw).
func (m *Matcher) Repair(raw string, budget *int64) Result {
	var r run
	r.m = m
	if len(raw) > MaxInput {
		return r.unparseable("output is " + strconv.Itoa(len(raw)) + " bytes long; at most " + strconv.Itoa(MaxInput) + " are read")
	}
	if trimSpace(raw) == "" {
		return r.unparseable("empty output")
	}

	// SPEC §2 step 1: reasoning blocks, then the JSON value among the text.
	text, blocks, removed := stripThink(raw)
	if blocks > 0 {
		r.fix(FixStripThink, "removed "+plural(blocks, "reasoning block")+" ("+plural(removed, "byte")+")")
		if trimSpace(text) == "" {
			return r.unparseable("the output holds nothing but reasoning (<think> blocks)")
		}
	}
	p := parsers.Get().(*parser)
	defer func() {
		p.s = ""
		if cap(p.nodes) <= maxPooledNodes {
			p.nodes = p.nodes[:0]
			parsers.Put(p)
		}
	}()
	p.s, p.nodes = text, p.nodes[:0]
	r.p = p
	f := p.search(workBound(len(text)))
	c := f.best
	switch {
	case f.plans > 0:
	case f.empties > 0:
		c = f.fallback
	case f.cut:
		return r.unparseable("the JSON is cut off by the end of the output (truncated?); no complete plan")
	case f.gaveUp:
		return r.unparseable("gave up looking for a plan: too much malformed JSON")
	case f.values > 0:
		return r.unparseable(`no JSON value is a plan (an object with a "plan" array, or an array of step objects)`)
	default:
		return r.unparseable("no JSON object or array in the output")
	}
	for e := p.nodes[c.arr].first; e >= 0; e = p.nodes[e].next {
		r.elems++
	}
	r.text(text, c, f)
	r.syntax(c)
	r.shape(c)

	// SPEC §2 step 2: the steps; step 3: normalization.
	steps, meta := r.steps(c.arr)
	r.names()
	plan := execution.NormalizeIDs(m.Len(), m.lookup, steps)
	return r.result(plan, meta, budget)
}
