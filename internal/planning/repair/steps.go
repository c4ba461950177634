package repair

import (
	"github.com/triage-eval/triage/internal/protocol/execution"
)

// stepMeta is what Repair keeps about a step passed to normalization.
type stepMeta struct {
	index int    // position in the JSON plan array
	given string // the id as written (a number's literal text)
	pool  int    // the resolved pool index, or −1
	how   match  // how the id resolved
}

// steps reads the elements of the plan array into raw steps (ids resolved to
// pool ids where they match; unmatched ids kept as written), recording the
// per-step repairs. Elements that are not steps are skipped.
func (r *run) steps(arr int32) ([]execution.Step, []stepMeta) {
	p := r.p
	n := r.elems // counted by Repair
	steps := make([]execution.Step, 0, n)
	meta := make([]stepMeta, 0, n)
	k := -1
	for e := p.nodes[arr].first; e >= 0; e = p.nodes[e].next {
		k++
		if kd := p.nodes[e].kind; kd != kObject {
			r.fixLine(FixInvalidStep, r.line().at(k).s(" is ").s(kindName(kd)).s(", not an object; skipped"))
			continue
		}
		idVal, tokVal := r.fields(e, k)
		if idVal < 0 {
			r.fixLine(FixInvalidStep, r.line().at(k).s(" has no id; skipped"))
			continue
		}
		given, ok := r.id(idVal, k)
		if !ok {
			continue
		}
		if tokVal < 0 {
			r.fixLine(FixInvalidTokens, r.line().at(k).s(" (").q(given).s(") has no tokens; skipped"))
			continue
		}
		tokens, ok := r.tokens(tokVal, k)
		if !ok {
			continue
		}
		st := stepMeta{index: k, given: given, pool: -1}
		id := given
		var i int
		switch i, st.how = r.m.resolve(given); st.how {
		case matchCanonical:
			r.fixLine(FixIDCanonical, r.line().at(k).s(".id ").q(given).s(" → ").q(r.m.ids[i]))
			fallthrough
		case matchExact:
			id, st.pool = r.m.ids[i], i
		}
		steps = append(steps, execution.Step{ID: id, Tokens: tokens})
		meta = append(meta, st)
	}
	return steps, meta
}

// fields returns the value nodes of step object obj's id and allocation
// (−1 when absent), recording synonyms, repeated keys and extra fields. The
// key the schema names ("id", "tokens", in any case) wins over synonyms,
// and synonyms rank in list order; a repeated key keeps its last value, as
// encoding/json does; every other key is an extra field.
func (r *run) fields(obj int32, k int) (idVal, tokVal int32) {
	p := r.p
	id := slot{names: idKeys, rank: len(idKeys), key: -1}
	tok := slot{names: tokensKeys, rank: len(tokensKeys), key: -1}
	for key := p.nodes[obj].first; key >= 0; key = p.nodes[p.nodes[key].next].next {
		name := p.text(p.nodes[key])
		if rank := keyRank(name, idKeys); rank >= 0 {
			r.pick(&id, key, rank, k)
		} else if rank := keyRank(name, tokensKeys); rank >= 0 {
			r.pick(&tok, key, rank, k)
		} else {
			r.extra.add(name)
		}
	}
	idVal, tokVal = -1, -1
	if id.key >= 0 {
		r.chosen(id)
		idVal = p.nodes[id.key].next
	}
	if tok.key >= 0 {
		r.chosen(tok)
		tokVal = p.nodes[tok.key].next
	}
	return idVal, tokVal
}

// slot is the best key found so far for one schema field.
type slot struct {
	names []string // the field's key names, schema key first
	rank  int      // position of key's name in names
	key   int32    // the key node, or −1
}

// pick applies the precedence of fields to one key of the given rank.
func (r *run) pick(s *slot, key int32, rank, k int) {
	switch {
	case rank < s.rank:
		if s.key >= 0 {
			r.extra.add(r.p.text(r.p.nodes[s.key]))
		}
		s.key, s.rank = key, rank
	case rank == s.rank:
		r.fixLine(FixDuplicateKey, r.line().at(k).s(": key ").q(s.names[rank]).s(" repeated; the last value is used"))
		s.key = key
	default:
		r.extra.add(r.p.text(r.p.nodes[key]))
	}
}

// chosen records a chosen key that is not written as the schema key.
func (r *run) chosen(s slot) {
	if name := r.p.text(r.p.nodes[s.key]); name != s.names[0] {
		r.synonyms.add(name)
	}
}

// id reads a step's id: a string as is, a number as its literal text
// (id_from_number). Any other value makes the step invalid.
func (r *run) id(val int32, k int) (string, bool) {
	n := r.p.nodes[val]
	switch n.kind {
	case kString:
		return r.p.text(n), true
	case kNumber:
		lit := r.p.literalText(n)
		r.fixLine(FixIDFromNumber, r.line().at(k).s(".id ").lit(lit).s(" → ").q(lit))
		return lit, true
	}
	r.fixLine(FixInvalidStep, r.line().at(k).s(".id is ").s(kindName(n.kind)).s("; skipped"))
	return "", false
}

// tokens reads a step's allocation: a number, or a string in the grammar of
// numberFromString; floats are truncated toward zero and values beyond
// int64 saturate. Any other value makes the step invalid.
func (r *run) tokens(val int32, k int) (int64, bool) {
	p := r.p
	n := p.nodes[val]
	var num number
	// shown appends the allocation as written.
	var text string
	shown := func(l line) line {
		if n.kind == kString {
			return l.q(text)
		}
		return l.lit(text)
	}
	switch n.kind {
	case kNumber:
		text = p.literalText(n)
		num = numberFromLiteral(text)
	case kString:
		text = p.text(n)
		var ok bool
		if num, ok = numberFromString(text); !ok {
			r.fixLine(FixInvalidTokens, shown(r.line().at(k).s(".tokens ")).s(" is not a number; skipped"))
			return 0, false
		}
		r.fixLine(FixNumberFromString, shown(r.line().at(k).s(".tokens ")).s(" → ").n(num.v))
	default:
		r.fixLine(FixInvalidTokens, r.line().at(k).s(".tokens is ").s(kindName(n.kind)).s("; skipped"))
		return 0, false
	}
	if num.float {
		r.fixLine(FixFloatTruncated, shown(r.line().at(k).s(".tokens ")).s(" → ").n(num.v))
	}
	if num.saturated {
		r.fixLine(FixNumberSaturated, shown(r.line().at(k).s(".tokens ")).s(" → ").n(num.v))
	}
	return num.v, true
}
