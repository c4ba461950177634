package repair

import (
	"slices"
	"strings"
	"sync"
)

// Matcher resolves the ids a planner wrote to a pool's ids, and repairs
// plans against that pool. It knows only the ids, never costs or
// correctness. A Matcher is safe for concurrent use (its canonical-form
// tables are built once, on the first id that does not match exactly);
// build one per pool and reuse it.
type Matcher struct {
	ids []string
	// exact maps each id to its first index.
	exact map[string]int
	// once guards the canonical-form tables below.
	once sync.Once
	// canon holds the canonical form of each id, sorted by form; idx is −1
	// when two pool ids share the form.
	canon []form
	// num holds the number of each prefix-plus-number id, without leading
	// zeros, sorted, idx −1 when shared; nil unless every pool id is prefix
	// + digits with the same prefix.
	num []form
	// prefix is that common prefix, in canonical form.
	prefix string
}

// form is a canonical form of a pool id and the id's index.
type form struct {
	key string
	idx int
}

// match says how an id resolved.
type match uint8

const (
	matchNone      match = iota // no pool id
	matchExact                  // the id itself
	matchCanonical              // one pool id through a canonical form
	matchAmbiguous              // several pool ids share the canonical form: no match
)

// NewMatcher returns a Matcher for the pool with these ids, in pool order
// (an id's index is its position). Ids are expected distinct and non-empty,
// as execution.NewPool requires; a repeated id resolves to its first
// position. The slice is copied.
func NewMatcher(poolIDs []string) *Matcher {
	m := &Matcher{
		ids:   slices.Clone(poolIDs),
		exact: make(map[string]int, len(poolIDs)),
	}
	for i, id := range m.ids {
		if _, dup := m.exact[id]; !dup {
			m.exact[id] = i
		}
	}
	return m
}

// tables builds the canonical-form tables: sorted slices, searched by
// binary search (for a pool of 30 ids, cheaper to build than maps).
func (m *Matcher) tables() {
	forms := make([]form, 2*len(m.ids))
	m.canon, m.num = forms[:len(m.ids)], forms[len(m.ids):]
	prefixed := len(m.ids) > 0
	for i, id := range m.ids {
		c := canonical(id)
		m.canon[i] = form{c, i}
		pre, digits := splitNumber(c)
		m.num[i] = form{trimZeros(digits), i}
		switch {
		case digits == "":
			prefixed = false
		case i == 0:
			m.prefix = pre
		case pre != m.prefix:
			prefixed = false
		}
	}
	sortForms(m.canon)
	if prefixed {
		sortForms(m.num)
	} else {
		m.prefix, m.num = "", nil
	}
}

// sortForms sorts forms by key and marks keys shared by several ids.
func sortForms(forms []form) {
	slices.SortFunc(forms, func(a, b form) int { return strings.Compare(a.key, b.key) })
	for i := 1; i < len(forms); i++ {
		if forms[i].key == forms[i-1].key && forms[i].idx != forms[i-1].idx {
			forms[i].idx, forms[i-1].idx = -1, -1
		}
	}
}

// findForm returns the index recorded for key in sorted forms.
func findForm(forms []form, key string) (int, bool) {
	k, ok := slices.BinarySearchFunc(forms, key, func(f form, key string) int { return strings.Compare(f.key, key) })
	if !ok {
		return 0, false
	}
	return forms[k].idx, true
}

// Len returns the number of pool ids.
func (m *Matcher) Len() int { return len(m.ids) }

// lookup returns the index of an exact pool id (for execution.NormalizeIDs).
func (m *Matcher) lookup(id string) (int, bool) {
	i, ok := m.exact[id]
	return i, ok
}

// Resolve returns the pool id that a written id names, by the rules Repair
// applies to a step's id: exactly first, then by canonical form, then
// (prefix-plus-number pools only) by number. It reports false when the id
// names no pool id or several (a canonical form they share). So for the pool
// p1…p30, "p3", "P3", "3", "003" and "[id: #3]" all resolve to "p3".
func (m *Matcher) Resolve(id string) (string, bool) {
	i, how := m.resolve(id)
	if how != matchExact && how != matchCanonical {
		return "", false
	}
	return m.ids[i], true
}

// resolve returns the pool index of a written id and how it matched: exactly
// first, then by canonical form, then (prefix-plus-number pools only) by
// number. A form shared by several pool ids matches none of them.
func (m *Matcher) resolve(id string) (int, match) {
	if i, ok := m.exact[id]; ok {
		return i, matchExact
	}
	m.once.Do(m.tables)
	c := canonical(id)
	if c == "" {
		return 0, matchNone
	}
	if i, ok := findForm(m.canon, c); ok {
		if i < 0 {
			return 0, matchAmbiguous
		}
		return i, matchCanonical
	}
	if m.num == nil {
		return 0, matchNone
	}
	digits := ""
	switch {
	case allDigits(c):
		digits = c
	case strings.HasPrefix(c, m.prefix) && allDigits(c[len(m.prefix):]):
		digits = c[len(m.prefix):]
	}
	if digits == "" {
		return 0, matchNone
	}
	if i, ok := findForm(m.num, trimZeros(digits)); ok {
		if i < 0 {
			return 0, matchAmbiguous
		}
		return i, matchCanonical
	}
	return 0, matchNone
}

// canonical returns the canonical form of an id: surrounding whitespace
// removed; then one pair of enclosing brackets "[…]"; then a leading "id:" or
// "id=" (any case); then a leading "#"; whitespace trimmed after each step;
// finally lower-cased. So "[id: P3]", "#p3", " ID:p3 " and "P3" are all "p3".
func canonical(id string) string {
	s := strings.TrimSpace(id)
	if len(s) >= 2 && s[0] == '[' && s[len(s)-1] == ']' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if hasPrefixFold(s, "id") {
		if r := strings.TrimSpace(s[2:]); r != "" && (r[0] == ':' || r[0] == '=') {
			s = strings.TrimSpace(r[1:])
		}
	}
	if s != "" && s[0] == '#' {
		s = strings.TrimSpace(s[1:])
	}
	return strings.ToLower(s)
}

// splitNumber splits s into a prefix and its trailing run of ASCII digits.
func splitNumber(s string) (prefix, digits string) {
	i := len(s)
	for i > 0 && isDigit(s[i-1]) {
		i--
	}
	return s[:i], s[i:]
}

// trimZeros removes leading zeros from a digit string, keeping one digit.
func trimZeros(d string) string {
	for len(d) > 1 && d[0] == '0' {
		d = d[1:]
	}
	return d
}

// allDigits reports whether s is a non-empty run of ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
