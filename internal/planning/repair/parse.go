package repair

import "strings"

// maxDepth bounds the nesting of a JSON value; a deeper value is not parsed.
// Plans are three levels deep ({"plan": [{...}]}), four or five in a wrapper.
const maxDepth = 16

// kind is the type of a parsed JSON value.
type kind uint8

const (
	kNull kind = iota + 1
	kBool
	kNumber
	kString
	kArray
	kObject
)

// Node flags.
const (
	// fEscape: a string holds backslash escapes, so its text must be decoded.
	fEscape uint8 = 1 << iota
	// fBare: a string is an unquoted object key.
	fBare
	// fSingle: a string is single-quoted.
	fSingle
	// fFloat: a number has a decimal point or an exponent.
	fFloat
)

// node is one parsed value, in the parser's arena. Containers link their
// children through first and next: an array's elements in order, an
// object's keys and values alternating (key, value, key, value…).
type node struct {
	start, end  int32 // the value's byte span in the text (quotes included)
	first, next int32 // first child, next sibling; −1 for none
	kind        kind
	flags       uint8
}

// parser is a tolerant JSON parser: a recursive descent over one text that
// builds an arena of nodes. One parse attempt starts at an offset and reads a
// single value; it fails at the first defect it does not tolerate. Work is
// linear in the bytes an attempt reads; nesting is bounded by maxDepth.
type parser struct {
	s     string
	pos   int
	depth int
	nodes []node
	// syn counts the defects tolerated by the current attempt.
	syn [numSyntax]int32
	// eof: the current attempt failed because the text ended.
	eof bool
}

// parse reads one value starting at start (a '{' or '['). On success it
// returns the root node and p.pos is just past the value; on failure it
// returns −1, removes the attempt's nodes, and p.pos is where it stopped.
func (p *parser) parse(start int) int32 {
	p.pos, p.depth, p.syn, p.eof = start, 0, [numSyntax]int32{}, false
	mark := len(p.nodes)
	root := p.value()
	if root < 0 {
		p.nodes = p.nodes[:mark]
	}
	return root
}

// add appends a node of kind k starting at the current position.
func (p *parser) add(k kind) int32 {
	n := len(p.nodes)
	if n == cap(p.nodes) {
		p.nodes = append(p.nodes, node{})
	} else {
		p.nodes = p.nodes[:n+1] // updates only the length: no write barrier
	}
	p.nodes[n] = node{kind: k, start: int32(p.pos), first: -1, next: -1}
	return int32(n)
}

// atEnd reports whether the text is exhausted, marking the attempt as cut
// off by the end of the text when it is.
func (p *parser) atEnd() bool {
	if p.pos >= len(p.s) {
		p.eof = true
		return true
	}
	return false
}

// skip passes whitespace and comments.
func (p *parser) skip() {
	s := p.s
	for p.pos < len(s) {
		switch s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		case '/':
			if p.pos+1 >= len(s) {
				return
			}
			switch s[p.pos+1] {
			case '/':
				p.syn[synComments]++
				if nl := strings.IndexByte(s[p.pos+2:], '\n'); nl >= 0 {
					p.pos += 2 + nl + 1
				} else {
					p.pos = len(s)
				}
			case '*':
				end := strings.Index(s[p.pos+2:], "*/")
				if end < 0 {
					p.pos = len(s)
					return
				}
				p.syn[synComments]++
				p.pos += 2 + end + 2
			default:
				return
			}
		default:
			return
		}
	}
}

// value reads any value.
func (p *parser) value() int32 {
	p.skip()
	if p.atEnd() {
		return -1
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"' || c == '\'':
		return p.str()
	case c == '-' || c == '+' || c == '.' || isDigit(c):
		return p.number()
	case c == 't':
		return p.literal("true", kBool)
	case c == 'f':
		return p.literal("false", kBool)
	case c == 'n':
		return p.literal("null", kNull)
	}
	return -1
}

// link appends child to a container whose last child is *last.
func (p *parser) link(container int32, last *int32, child int32) {
	if *last < 0 {
		p.nodes[container].first = child
	} else {
		p.nodes[*last].next = child
	}
	*last = child
}

// object reads {…}: keys are strings or bare identifiers; trailing and
// missing commas are tolerated.
func (p *parser) object() int32 {
	if p.depth >= maxDepth {
		return -1
	}
	p.depth++
	idx := p.add(kObject)
	p.pos++
	last := int32(-1)
	members, comma := 0, false
	for {
		p.skip()
		if p.atEnd() {
			return -1
		}
		c := p.s[p.pos]
		if c == '}' {
			if comma {
				p.syn[synTrailingComma]++
			}
			p.pos++
			break
		}
		if members > 0 && !comma {
			if !isKeyStart(c) {
				return -1
			}
			p.syn[synMissingComma]++
		}
		k := p.key()
		if k < 0 {
			return -1
		}
		p.skip()
		if p.atEnd() || p.s[p.pos] != ':' {
			return -1
		}
		p.pos++
		v := p.value()
		if v < 0 {
			return -1
		}
		if p.nodes[v].kind == kNumber {
			p.grouping(v)
		}
		p.link(idx, &last, k)
		p.link(idx, &last, v)
		members++
		p.skip()
		comma = p.pos < len(p.s) && p.s[p.pos] == ','
		if comma {
			p.pos++
		}
	}
	p.nodes[idx].end = int32(p.pos)
	p.depth--
	return idx
}

// array reads […]; trailing and missing commas are tolerated.
func (p *parser) array() int32 {
	if p.depth >= maxDepth {
		return -1
	}
	p.depth++
	idx := p.add(kArray)
	p.pos++
	last := int32(-1)
	elems, comma := 0, false
	for {
		p.skip()
		if p.atEnd() {
			return -1
		}
		c := p.s[p.pos]
		if c == ']' {
			if comma {
				p.syn[synTrailingComma]++
			}
			p.pos++
			break
		}
		if elems > 0 && !comma {
			if !isValueStart(c) {
				return -1
			}
			p.syn[synMissingComma]++
		}
		v := p.value()
		if v < 0 {
			return -1
		}
		p.link(idx, &last, v)
		elems++
		p.skip()
		comma = p.pos < len(p.s) && p.s[p.pos] == ','
		if comma {
			p.pos++
		}
	}
	p.nodes[idx].end = int32(p.pos)
	p.depth--
	return idx
}

// key reads an object key: a string, or a bare identifier.
func (p *parser) key() int32 {
	c := p.s[p.pos]
	if c == '"' || c == '\'' {
		return p.str()
	}
	if !isIdentStart(c) {
		return -1
	}
	idx := p.add(kString)
	for p.pos < len(p.s) && isIdentChar(p.s[p.pos]) {
		p.pos++
	}
	p.nodes[idx].end = int32(p.pos)
	p.nodes[idx].flags = fBare
	p.syn[synUnquotedKeys]++
	return idx
}
