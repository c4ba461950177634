package repair

import "strings"

// literal reads the keyword word.
func (p *parser) literal(word string, k kind) int32 {
	rest := p.s[p.pos:]
	if len(rest) < len(word) {
		if strings.HasPrefix(word, rest) {
			p.pos = len(p.s)
			p.eof = true
		}
		return -1
	}
	if rest[:len(word)] != word || len(rest) > len(word) && isIdentChar(rest[len(word)]) {
		return -1
	}
	idx := p.add(k)
	p.pos += len(word)
	p.nodes[idx].end = int32(p.pos)
	return idx
}

// str reads a double- or single-quoted string. A raw line break ends the
// attempt (JSON strings never hold one, and prose apostrophes would
// otherwise open strings that run on); other raw control characters and
// unknown escapes are tolerated.
func (p *parser) str() int32 {
	s := p.s
	q := s[p.pos]
	idx := p.add(kString)
	var flags uint8
	if q == '\'' {
		flags = fSingle
	}
	for i := p.pos + 1; i < len(s); {
		c := s[i]
		switch {
		case c == q:
			if q == '\'' {
				p.syn[synSingleQuotes]++
			}
			p.pos = i + 1
			p.nodes[idx].end = int32(p.pos)
			p.nodes[idx].flags = flags
			return idx
		case c == '\\':
			flags |= fEscape
			if i+1 >= len(s) {
				p.pos = len(s)
				p.eof = true
				return -1
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 <= len(s) && isHex4(s[i+2:i+6]) {
					i += 6
				} else {
					p.syn[synInvalidEscape]++
					i += 2
				}
			case '\'':
				if q != '\'' {
					p.syn[synInvalidEscape]++
				}
				i += 2
			case '\n', '\r':
				p.pos = i + 1
				return -1
			default:
				p.syn[synInvalidEscape]++
				i += 2
			}
		case c == '\n' || c == '\r':
			p.pos = i
			return -1
		case c < 0x20:
			p.syn[synControlChar]++
			i++
		default:
			i++
		}
	}
	p.pos = len(s)
	p.eof = true
	return -1
}

// number reads a number: JSON's syntax, plus a leading '+', leading zeros,
// and a missing integer or fraction part ("+5", "007", ".5", "5."), which
// count as number_syntax. It must end at a delimiter ("500tokens" fails).
func (p *parser) number() int32 {
	s := p.s
	i := p.pos
	strict := true
	switch s[i] {
	case '+':
		strict = false
		i++
	case '-':
		i++
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intDigits := i - intStart
	if intDigits > 1 && s[intStart] == '0' {
		strict = false
	}
	var flags uint8
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		flags = fFloat
		i++
		fs := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		fracDigits = i - fs
		if intDigits == 0 || fracDigits == 0 {
			strict = false
		}
	}
	if intDigits == 0 && fracDigits == 0 {
		p.pos = i
		p.eof = i >= len(s)
		return -1
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		flags = fFloat
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		es := j
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == es {
			p.pos = j
			p.eof = j >= len(s)
			return -1
		}
		i = j
	}
	if i < len(s) && (isIdentChar(s[i]) || s[i] == '.') {
		p.pos = i
		return -1
	}
	if !strict {
		p.syn[synNumberSyntax]++
	}
	idx := p.add(kNumber)
	p.pos = i
	p.nodes[idx].end = int32(i)
	p.nodes[idx].flags = flags
	return idx
}

// grouping extends an integer object value written with thousands
// separators, like 1,200 or 12,000,000: one to three digits without a
// leading zero, then groups of a comma and exactly three digits. In an
// object this is unambiguous, since a key never starts with a digit: without
// it the parse would fail.
func (p *parser) grouping(v int32) {
	n := &p.nodes[v]
	if n.flags&fFloat != 0 {
		return
	}
	lit := p.s[n.start:n.end]
	if lit[0] == '-' || lit[0] == '+' {
		lit = lit[1:]
	}
	if len(lit) > 3 || lit[0] == '0' {
		return
	}
	s := p.s
	i := int(n.end)
	for i+4 <= len(s) && s[i] == ',' && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) &&
		(i+4 == len(s) || !isIdentChar(s[i+4]) && s[i+4] != '.') {
		i += 4
	}
	if i != int(n.end) {
		n.end = int32(i)
		p.pos = i
		p.syn[synThousands]++
	}
}

// text returns a string node's value, decoding escapes (unknown escapes are
// kept as written; a lone surrogate becomes U+FFFD). Without escapes it is
// a substring of the parsed text.
func (p *parser) text(n node) string {
	if n.flags&fBare != 0 {
		return p.s[n.start:n.end]
	}
	raw := p.s[n.start+1 : n.end-1]
	if n.flags&fEscape == 0 {
		return raw
	}
	return unescape(raw, n.flags&fSingle != 0)
}

// literalText returns the source text of a node.
func (p *parser) literalText(n node) string { return p.s[n.start:n.end] }

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isIdentStart(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' || c == '_' || c == '$' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) || c == '-' }
func isKeyStart(c byte) bool   { return c == '"' || c == '\'' || isIdentStart(c) }

// isValueStart reports whether c can start a value (for a missing comma).
func isValueStart(c byte) bool {
	switch c {
	case '{', '[', '"', '\'', '-', '+', '.', 't', 'f', 'n':
		return true
	}
	return isDigit(c)
}

func isHex(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

func isHex4(s string) bool { return isHex(s[0]) && isHex(s[1]) && isHex(s[2]) && isHex(s[3]) }
