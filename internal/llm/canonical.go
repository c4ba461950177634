package llm

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/platform/canonjson"
)

// patchFast is patchBody without decoding the body into maps: it rewrites
// the bytes encoding/json produced (go-openai's body) into canonical form
// directly — keys sorted, HTML escapes undone — and applies the patch to
// the top-level object. It gives exactly patchBody's bytes; ok is false
// when raw holds anything it does not rewrite exactly as encoding/json
// would (an escape encoding/json does not write, a duplicate or escaped
// key, invalid UTF-8, a patch merged into an object of the body), and the
// caller then decodes the body.
func patchFast(raw []byte, p bodyPatch) (out []byte, ok bool) {
	c := canonWriter{src: raw, out: make([]byte, 0, len(raw)+64)}
	c.skipSpace()
	if c.i >= len(raw) || raw[c.i] != '{' {
		return nil, false
	}
	top, ok := c.members()
	if c.skipSpace(); !ok || c.i != len(raw) {
		return nil, false
	}
	set := func(key string, v any) bool {
		enc, err := canonjson.Marshal(v)
		if err != nil {
			return false
		}
		start := len(c.out)
		c.out = append(c.out, enc...)
		top = append(top, member{key: key, start: start, end: len(c.out)})
		return true
	}
	for k, v := range p.defaults {
		if !top.has(k) && !set(k, v) {
			return nil, false
		}
	}
	for k, v := range p.merge {
		if i := top.index(k); i >= 0 {
			if _, isObject := v.(map[string]any); isObject && c.out[top[i].start] == '{' {
				return nil, false
			}
			top = slices.Delete(top, i, i+1)
		}
		if !set(k, v) {
			return nil, false
		}
	}
	return c.object(top), true
}

// member is one member of an object being rewritten: its key and where
// its canonical value lies in canonWriter.out.
type member struct {
	key        string
	start, end int
}

type members []member

func (ms members) index(key string) int {
	return slices.IndexFunc(ms, func(m member) bool { return m.key == key })
}

func (ms members) has(key string) bool { return ms.index(key) >= 0 }

// canonWriter rewrites encoding/json output src into canonical form:
// values are appended to out as they are read, and each object's members
// are then put in key order.
type canonWriter struct {
	src []byte
	i   int
	out []byte
}

func (c *canonWriter) skipSpace() {
	for c.i < len(c.src) {
		switch c.src[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// value rewrites the value at c.i onto out.
func (c *canonWriter) value() bool {
	c.skipSpace()
	if c.i >= len(c.src) {
		return false
	}
	switch c.src[c.i] {
	case '{':
		start := len(c.out)
		ms, ok := c.members()
		if !ok {
			return false
		}
		// The members' values were appended from start on; the object
		// replaces them.
		c.out = append(c.out[:start], c.object(ms)...)
		return true
	case '[':
		c.i++
		c.out = append(c.out, '[')
		c.skipSpace()
		if c.i < len(c.src) && c.src[c.i] == ']' {
			c.i++
			c.out = append(c.out, ']')
			return true
		}
		for {
			if !c.value() {
				return false
			}
			c.skipSpace()
			if c.i >= len(c.src) {
				return false
			}
			c.i++
			switch c.src[c.i-1] {
			case ',':
				c.out = append(c.out, ',')
			case ']':
				c.out = append(c.out, ']')
				return true
			default:
				return false
			}
		}
	case '"':
		_, _, ok := c.str()
		return ok
	default:
		// A number or literal: encoding/json writes it back as read
		// (json.Number keeps the digits).
		start := c.i
		for c.i < len(c.src) && strings.IndexByte("0123456789+-.eEtruefalsn", c.src[c.i]) >= 0 {
			c.i++
		}
		if tok := string(c.src[start:c.i]); tok != "true" && tok != "false" && tok != "null" && !isNumber(tok) {
			return false
		}
		c.out = append(c.out, c.src[start:c.i]...)
		return true
	}
}

// members reads the object at c.i, appending its members' canonical
// values to out in the order read, and returns them.
func (c *canonWriter) members() (members, bool) {
	c.i++ // '{'
	var ms members
	c.skipSpace()
	if c.i < len(c.src) && c.src[c.i] == '}' {
		c.i++
		return ms, true
	}
	for {
		c.skipSpace()
		if c.i >= len(c.src) || c.src[c.i] != '"' {
			return nil, false
		}
		keyStart := len(c.out)
		key, escaped, ok := c.str()
		c.out = c.out[:keyStart]
		if !ok || escaped || ms.has(key) {
			return nil, false
		}
		c.skipSpace()
		if c.i >= len(c.src) || c.src[c.i] != ':' {
			return nil, false
		}
		c.i++
		start := len(c.out)
		if !c.value() {
			return nil, false
		}
		ms = append(ms, member{key: key, start: start, end: len(c.out)})
		c.skipSpace()
		if c.i >= len(c.src) {
			return nil, false
		}
		c.i++
		switch c.src[c.i-1] {
		case ',':
		case '}':
			return ms, true
		default:
			return nil, false
		}
	}
}

// object returns the object of ms, whose values lie in out, in key order.
func (c *canonWriter) object(ms members) []byte {
	size := 2
	for _, m := range ms {
		size += len(m.key) + 4 + m.end - m.start
	}
	sorted := slices.SortedFunc(slices.Values(ms), func(a, b member) int { return strings.Compare(a.key, b.key) })
	dst := make([]byte, 0, size)
	dst = append(dst, '{')
	for i, m := range sorted {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, m.key...)
		dst = append(dst, '"', ':')
		dst = append(dst, c.out[m.start:m.end]...)
	}
	return append(dst, '}')
}

// str rewrites the string at c.i onto out as encoding/json writes it
// without HTML escaping, and returns its content when it has no escape
// (escaped otherwise). It refuses what encoding/json would write
// otherwise.
func (c *canonWriter) str() (content string, escaped, ok bool) {
	c.i++ // '"'
	start := c.i
	c.out = append(c.out, '"')
	for c.i < len(c.src) {
		b := c.src[c.i]
		switch {
		case b == '"':
			c.i++
			c.out = append(c.out, '"')
			if escaped {
				return "", true, true
			}
			return string(c.src[start : c.i-1]), false, true
		case b < 0x20:
			return "", false, false
		case b == '\\':
			escaped = true
			if !c.escape() {
				return "", false, false
			}
		case b < utf8.RuneSelf:
			// A run of plain characters goes over at once.
			run := c.i + 1
			for run < len(c.src) && c.src[run] < utf8.RuneSelf && c.src[run] >= 0x20 && c.src[run] != '"' && c.src[run] != '\\' {
				run++
			}
			c.out = append(c.out, c.src[c.i:run]...)
			c.i = run
		default:
			r, size := utf8.DecodeRune(c.src[c.i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				return "", false, false
			}
			c.out = append(c.out, c.src[c.i:c.i+size]...)
			c.i += size
		}
	}
	return "", false, false
}

// escape rewrites the escape at c.i: the HTML escapes become their
// characters, the others encoding/json writes stay as they are.
func (c *canonWriter) escape() bool {
	if c.i+1 >= len(c.src) {
		return false
	}
	switch c.src[c.i+1] {
	case '"', '\\', 'n', 'r', 't', 'b', 'f':
		c.out = append(c.out, c.src[c.i:c.i+2]...)
		c.i += 2
		return true
	case 'u':
	default:
		return false
	}
	if c.i+6 > len(c.src) {
		return false
	}
	esc := string(c.src[c.i : c.i+6])
	switch {
	case esc == `\u003c`:
		c.out = append(c.out, '<')
	case esc == `\u003e`:
		c.out = append(c.out, '>')
	case esc == `\u0026`:
		c.out = append(c.out, '&')
	case esc == `\u2028`, esc == `\u2029`, isControlEscape(esc):
		c.out = append(c.out, esc...)
	default:
		return false
	}
	c.i += 6
	return true
}

// isControlEscape reports whether esc is how encoding/json writes a
// control character it has no short escape for.
func isControlEscape(esc string) bool {
	const hex = "0123456789abcdef"
	if esc[:4] != `\u00` || (esc[4] != '0' && esc[4] != '1') || strings.IndexByte(hex, esc[5]) < 0 {
		return false
	}
	switch esc[4:] {
	case "08", "09", "0a", "0c", "0d":
		return false
	}
	return true
}

// isNumber reports whether s is a JSON number.
func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	digits := func() int {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		s = s[n:]
		return n
	}
	switch {
	case s == "":
		return false
	case s[0] == '0':
		s = s[1:]
	case digits() == 0:
		return false
	}
	if strings.HasPrefix(s, ".") {
		if s = s[1:]; digits() == 0 {
			return false
		}
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s != "" && (s[0] == '+' || s[0] == '-') {
			s = s[1:]
		}
		if digits() == 0 {
			return false
		}
	}
	return s == ""
}
