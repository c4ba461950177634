package repair

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// isSpace reports whether r is whitespace for the "nothing around the plan"
// test: Unicode white space and the byte-order mark.
func isSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

func trimSpace(s string) string      { return strings.TrimFunc(s, isSpace) }
func trimLeftSpace(s string) string  { return strings.TrimLeftFunc(s, isSpace) }
func trimRightSpace(s string) string { return strings.TrimRightFunc(s, isSpace) }

// fenceOpen reports whether line opens a Markdown code fence: ``` or ~~~
// (three or more), then an optional info string without backquotes, such
// as "json".
func fenceOpen(line string) bool {
	line = trimSpace(line)
	n := fenceLen(line)
	return n > 0 && !strings.ContainsRune(line[n:], '`')
}

// fenceClose reports whether line is only a code fence.
func fenceClose(line string) bool {
	line = trimSpace(line)
	n := fenceLen(line)
	return n > 0 && n == len(line)
}

// fenceLen returns the length of the run of ` or ~ that starts line when it
// is at least three long, else 0.
func fenceLen(line string) int {
	if line == "" || line[0] != '`' && line[0] != '~' {
		return 0
	}
	n := 1
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 {
		return 0
	}
	return n
}

// surroundings describes the text around the chosen value t[start:end]: whether
// it sits in a code fence (the line before it opens one; the line after it,
// if any, closes it), and how many bytes of text other than whitespace and
// those fence lines come before and after it.
func surroundings(t string, start, end int) (fence bool, before, after int) {
	pre := trimRightSpace(t[:start])
	post := trimLeftSpace(t[end:])
	if ls := strings.LastIndexByte(pre, '\n') + 1; fenceOpen(pre[ls:]) {
		fence = true
		pre = pre[:ls]
		line := post
		if nl := strings.IndexByte(post, '\n'); nl >= 0 {
			line = post[:nl]
		}
		if fenceClose(line) {
			post = post[len(line):]
		}
	}
	return fence, len(trimSpace(pre)), len(trimSpace(post))
}

// maxQuoted bounds the text a Fix detail quotes.
const maxQuoted = 48

// line builds a Fix detail; see run.line.
type line []byte

// s appends text.
func (l line) s(text string) line { return append(l, text...) }

// n appends an integer.
func (l line) n(v int64) line { return strconv.AppendInt(l, v, 10) }

// at appends "plan[k]".
func (l line) at(k int) line {
	return append(strconv.AppendInt(append(l, "plan["...), int64(k), 10), ']')
}

// q appends text as a Go string literal, cut to maxQuoted bytes (at a rune
// boundary) with "…" when longer.
func (l line) q(text string) line {
	cut := len(text)
	if cut > maxQuoted {
		cut = maxQuoted
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
	}
	plain := true
	for i := 0; i < cut && plain; i++ {
		c := text[i]
		plain = c >= 0x20 && c < 0x7F && c != '"' && c != '\\'
	}
	if plain {
		l = append(append(append(l, '"'), text[:cut]...), '"')
	} else {
		l = strconv.AppendQuote(l, text[:cut])
	}
	if cut < len(text) {
		l = append(l, "…"...)
	}
	return l
}

// lit appends a number literal as written, cut to maxQuoted bytes with "…"
// when longer.
func (l line) lit(text string) line {
	if len(text) <= maxQuoted {
		return append(l, text...)
	}
	return append(append(l, text[:maxQuoted]...), "…"...)
}

// kindName names a value's type in Fix details.
func kindName(k kind) string {
	switch k {
	case kNull:
		return "null"
	case kBool:
		return "a boolean"
	case kNumber:
		return "a number"
	case kString:
		return "a string"
	case kArray:
		return "an array"
	}
	return "an object"
}
