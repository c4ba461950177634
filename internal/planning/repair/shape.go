package repair

import "strings"

// maxWrappers is how many wrapper objects may enclose {"plan": [...]}.
const maxWrappers = 2

// Key names, in canonical key form (see keyIs). The first of each list is
// the key the schema asks for; the others are synonyms, preferred in list
// order when several are present.
var (
	planKeys   = []string{"plan"}
	idKeys     = []string{"id", "problem_id", "problemid", "item_id", "problem"}
	tokensKeys = []string{
		"tokens", "allocation", "allocated_tokens", "tokens_allocated",
		"token_allocation", "token_budget", "budget", "max_tokens",
	}
)

// keyIs reports whether a key as written reads as name (lower case, '_'
// for separators): surrounding whitespace is ignored, ASCII letters match
// in any case, and '-' or ' ' match '_'. So "Tokens", "problem-id" and
// " ID " read as "tokens", "problem_id" and "id".
func keyIs(raw, name string) bool { return keyEq(trimKey(raw), name) }

// trimKey removes a key's surrounding whitespace.
func trimKey(raw string) string {
	if raw != "" && (raw[0] <= ' ' || raw[0] >= 0x80 || raw[len(raw)-1] <= ' ' || raw[len(raw)-1] >= 0x80) {
		return strings.TrimSpace(raw)
	}
	return raw
}

// keyEq is keyIs for a trimmed key.
func keyEq(raw, name string) bool {
	if len(raw) != len(name) {
		return false
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == '-' || c == ' ':
			c = '_'
		}
		if c != name[i] {
			return false
		}
	}
	return true
}

// keyRank returns the position of a written key in names, or −1.
func keyRank(raw string, names []string) int {
	if raw == names[0] {
		return 0
	}
	raw = trimKey(raw)
	for r, name := range names {
		if keyEq(raw, name) {
			return r
		}
	}
	return -1
}

// classify says whether a complete value is a plan, and where its steps are.
//
//   - An empty array is shapeEmpty.
//   - A non-empty array whose elements are all objects, at least one with an
//     id key, is shapeBare.
//   - An object with a "plan" key (the last one, if repeated) is shapePlan
//     when that key's value is an array, and not a plan otherwise.
//   - An object without a "plan" key is shapeNested when one of its members
//     (the last such) is an object that is shapePlan or shapeNested, at most
//     maxWrappers levels down.
func (p *parser) classify(root int32) candidate {
	c := candidate{arr: -1, holder: -1, planKey: -1}
	n := p.nodes[root]
	switch n.kind {
	case kArray:
		switch {
		case n.first < 0:
			c.shape, c.arr = shapeEmpty, root
		case p.isStepArray(root):
			c.shape, c.arr = shapeBare, root
		}
	case kObject:
		if holder, key, arr, path, ok := p.findPlan(root, 0); ok {
			c.shape, c.arr, c.holder, c.planKey, c.path = shapePlan, arr, holder, key, path
			if holder != root {
				c.shape = shapeNested
			}
		}
	}
	return c
}

// isStepArray reports whether every element of arr is an object and at
// least one has an id key.
func (p *parser) isStepArray(arr int32) bool {
	withID := false
	for e := p.nodes[arr].first; e >= 0; e = p.nodes[e].next {
		if p.nodes[e].kind != kObject {
			return false
		}
		for k := p.nodes[e].first; k >= 0 && !withID; k = p.nodes[p.nodes[k].next].next {
			withID = keyRank(p.text(p.nodes[k]), idKeys) >= 0
		}
	}
	return withID
}

// planMember returns the key and value nodes of the last member of obj whose
// key reads "plan", or −1, −1.
func (p *parser) planMember(obj int32) (key, val int32) {
	key, val = -1, -1
	for k := p.nodes[obj].first; k >= 0; k = p.nodes[p.nodes[k].next].next {
		if keyIs(p.text(p.nodes[k]), planKeys[0]) {
			key, val = k, p.nodes[k].next
		}
	}
	return key, val
}

// findPlan looks for the plan array in obj or, when obj has no "plan" key,
// in its object members, depth wrappers down so far. path names the plan
// array from obj, like "plan" or "response.plan".
func (p *parser) findPlan(obj int32, depth int) (holder, key, arr int32, path string, ok bool) {
	if k, v := p.planMember(obj); k >= 0 {
		if p.nodes[v].kind != kArray {
			return -1, -1, -1, "", false
		}
		return obj, k, v, p.text(p.nodes[k]), true
	}
	if depth >= maxWrappers {
		return -1, -1, -1, "", false
	}
	for k := p.nodes[obj].first; k >= 0; k = p.nodes[p.nodes[k].next].next {
		v := p.nodes[k].next
		if p.nodes[v].kind != kObject {
			continue
		}
		if h, pk, a, sub, found := p.findPlan(v, depth+1); found {
			holder, key, arr, path, ok = h, pk, a, p.text(p.nodes[k])+"."+sub, true
		}
	}
	return holder, key, arr, path, ok
}
