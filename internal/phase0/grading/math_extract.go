package grading

import (
	"strings"
)

// maxCandidates bounds how many \boxed commands, and how many "answer"
// words, are examined from the end of a response, so a degenerate
// response (a model repeating "\boxed{" until the token limit) is graded
// in linear time. The final answer is among the last ones.
const maxCandidates = 64

// lastBoxed returns the content of the last non-empty \boxed{…},
// \boxed X or \fbox{…} and its position; extractEmpty when there are
// boxes but all are empty or unbalanced (cut off).
func lastBoxed(s string) (string, int, extractStatus) {
	status := extractNone
	end := len(s)
	for tries := 0; end > 0 && tries < maxCandidates; tries++ {
		k, name := prevBox(s, end)
		if k < 0 {
			break
		}
		end = k
		i := k + name
		if i < len(s) && isLetter(s[i]) {
			continue // another command, e.g. \boxedsomething
		}
		status = extractEmpty
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j < len(s) && s[j] == '{' {
			c := matchBrace(s, j)
			if c < 0 {
				continue
			}
			if v := strings.TrimSpace(s[j+1 : c]); v != "" {
				return v, k, extractFound
			}
			continue
		}
		if j == i { // "\boxed5" is not a box
			continue
		}
		e := j
		for e < len(s) && !isSpace(s[e]) && s[e] != '$' {
			e++
		}
		if e > j {
			return s[j:e], k, extractFound
		}
	}
	return "", -1, status
}

// prevBox returns the index and length of the last \boxed or \fbox that
// starts before end, or -1. The box is usually near the end, so the last
// bytes are scanned backwards first, then the rest with lastIndex.
func prevBox(s string, end int) (int, int) {
	const window = 512
	lo := max(0, end-window)
	for i := end; i > lo; {
		k := strings.LastIndexByte(s[lo:i], '\\')
		if k < 0 {
			break
		}
		k += lo
		if n := boxCommand(s[k:]); n > 0 {
			return k, n
		}
		i = k
	}
	if lo == 0 {
		return -1, 0
	}
	// Commands starting before lo, which may end after it.
	b := lastIndex(s[:min(end, lo+len(`\boxed`)-1)], `\boxed`)
	f := lastIndex(s[:min(end, lo+len(`\fbox`)-1)], `\fbox`)
	if f > b {
		return f, len(`\fbox`)
	}
	return b, len(`\boxed`)
}

// boxCommand returns the length of the \boxed or \fbox t starts with, or 0.
func boxCommand(t string) int {
	switch {
	case strings.HasPrefix(t, `\boxed`):
		return len(`\boxed`)
	case strings.HasPrefix(t, `\fbox`):
		return len(`\fbox`)
	}
	return 0
}

// lastIndex is strings.LastIndex(s, sub), fast both for a rare sub in a
// long text and for a frequent one: chunks of doubling size are searched
// from the end, each with repeated forward searches, which are vectorized
// and much faster than LastIndex's backward Rabin-Karp.
func lastIndex(s, sub string) int {
	hi := len(s)
	for size := 256; ; size *= 2 {
		lo := max(0, hi-size)
		chunk := s[lo:hi]
		last := -1
		for i := 0; ; {
			k := strings.Index(chunk[i:], sub)
			if k < 0 {
				break
			}
			last = i + k
			i = last + 1
		}
		if last >= 0 {
			return lo + last
		}
		if lo == 0 {
			return -1
		}
		hi = lo + len(sub) - 1 // occurrences that start before lo
	}
}

// matchBrace returns the index of the brace closing s[i] == '{', or -1.
// A backslash escapes the next byte.
func matchBrace(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// lastAnswerStatement finds the last "answer" statement in s and returns
// the text that follows it, from the rest of its line or, when the
// statement ends its line ("**Final Answer**", "The answer is:"), from the
// next non-empty line (callers cut the value out), and the index of
// "answer". Recognized: "answer" (as answer, Answer or
// ANSWER, after a word boundary) followed by optional markup (*, _) and
// then ":", "=", or one of "is", "would be", "should be", "must be",
// "will be"; or a heading line that is only "answer" with "final", "the",
// "my" and markup around it. With labelsOnly, only labels that start
// their line count: "Answer:", "**Final answer:**", a lone heading.
func lastAnswerStatement(s string, labelsOnly bool) (string, int, bool) {
	// lower and upper are the last untried "nswer" and "NSWER"; only the
	// one just tried is searched again.
	lower, upper := lastIndex(s, "nswer"), lastIndex(s, "NSWER")
	for tries := 0; tries < maxCandidates; tries++ {
		k := max(lower, upper)
		if k < 1 {
			return "", -1, false
		}
		if k == lower {
			lower = lastIndex(s[:k], "nswer")
		} else {
			upper = lastIndex(s[:k], "NSWER")
		}
		k-- // the a of answer
		if s[k] != 'a' && s[k] != 'A' || k > 0 && isWordByte(s[k-1]) {
			continue
		}
		rest := s[k+len("answer"):]
		if rest != "" && isWordByte(rest[0]) {
			continue // answers, answered
		}
		heading := headingPrefix(linePrefix(s, k))
		if labelsOnly && !heading {
			continue
		}
		p := skipMarkup(rest, 0)
		switch {
		case p < len(rest) && (rest[p] == ':' || rest[p] == '=' && !labelsOnly):
			return lineOrNext(rest, p+1), k, true
		case p > 0 && !labelsOnly:
			if q, ok := copula(rest, p); ok {
				return lineOrNext(rest, q), k, true
			}
		}
		if (p == len(rest) || rest[p] == '\n' || rest[p] == '\r') && heading {
			return lineOrNext(rest, p), k, true
		}
	}
	return "", -1, false
}

// copula matches "is", "would be", "should be", "must be" or "will be"
// (any case) at rest[p:], followed by a non-word byte, and returns the
// index after it and any ':' and markup.
func copula(rest string, p int) (int, bool) {
	for _, w := range [...]string{"is", "would be", "should be", "must be", "will be"} {
		if len(rest)-p >= len(w) && strings.EqualFold(rest[p:p+len(w)], w) {
			q := p + len(w)
			if q < len(rest) && isWordByte(rest[q]) {
				continue
			}
			q = skipMarkup(rest, q)
			if q < len(rest) && rest[q] == ':' {
				q++
			}
			return q, true
		}
	}
	return 0, false
}

// skipMarkup skips spaces, tabs and markdown emphasis from s[i:].
func skipMarkup(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '*' || s[i] == '_') {
		i++
	}
	return i
}

// headingPrefix reports whether the text before "answer" on its line is
// only markup and "final", "the" or "my".
func headingPrefix(p string) bool {
	p = strings.ToLower(strings.Trim(p, " \t*_#>-"))
	switch strings.TrimRight(p, " \t*_") {
	case "", "final", "the final", "my final", "the":
		return true
	}
	return false
}

// linePrefix returns the text before s[k] on its line, or "?" when that
// is longer than any heading prefix (so a very long line costs nothing).
func linePrefix(s string, k int) string {
	const longest = 48
	lo := max(0, k-longest)
	if i := strings.LastIndexByte(s[lo:k], '\n'); i >= 0 {
		return s[lo+i+1 : k]
	}
	if lo > 0 {
		return "?"
	}
	return s[:k]
}

// lineOrNext returns the text of s from i on, starting with the rest of
// the line when it holds more than markup, else with the next line that
// does; "" when there is none. Callers cut the value they need.
func lineOrNext(s string, i int) string {
	for i <= len(s) {
		e := strings.IndexByte(s[i:], '\n')
		line := s[i:]
		if e >= 0 {
			line = s[i : i+e]
		}
		if strings.Trim(line, " \t\r*_#>") != "" {
			return strings.TrimSpace(s[i:])
		}
		if e < 0 {
			break
		}
		i += e + 1
	}
	return ""
}

// firstLine returns v up to its first line break, trimmed.
func firstLine(v string) string {
	if e := strings.IndexByte(v, '\n'); e >= 0 {
		v = v[:e]
	}
	return strings.TrimSpace(v)
}

// mathStatementValue cuts the math answer out of the text after an answer
// statement: its leading $$…$$ or \[…\] span (which may span lines) or
// $…$ or \(…\) span (on its line) when it starts with one, else the text
// up to the end of its line or first sentence.
func mathStatementValue(v string) string {
	v = strings.TrimLeft(v, " \t*_")
	for _, d := range [...]struct {
		open, close string
		lines       bool
	}{{"$$", "$$", true}, {`\[`, `\]`, true}, {"$", "$", false}, {`\(`, `\)`, false}} {
		if strings.HasPrefix(v, d.open) {
			body := v[len(d.open):]
			if !d.lines {
				body = firstLine(body)
			}
			if e := strings.Index(body, d.close); e >= 0 {
				return body[:e]
			}
			v = body // unclosed: a dollar amount, or cut off
			break
		}
	}
	v = firstLine(v)
	for i := 0; i < len(v); i++ {
		if v[i] == '.' && (i+1 == len(v) || isSpace(v[i+1])) {
			return v[:i]
		}
	}
	return v
}

// lastNumber returns the last number in s: optional minus sign, digits
// with optional thousands commas (groups of exactly three) and an
// optional decimal part.
func lastNumber(s string) (string, bool) {
	i := len(s) - 1
	for i >= 0 && !isDigit(s[i]) {
		i--
	}
	if i < 0 {
		return "", false
	}
	end := i + 1
	j := i
	for j > 0 && isDigit(s[j-1]) {
		j--
	}
	if j >= 2 && s[j-1] == '.' && isDigit(s[j-2]) { // decimal part
		j--
		for j > 0 && isDigit(s[j-1]) {
			j--
		}
	}
	// Thousands groups: ",ddd" preceded by a digit, only before the decimal point.
	for j >= 2 && s[j-1] == ',' && isDigit(s[j-2]) && groupOfThree(s, j) {
		k := j - 1
		for k > 0 && isDigit(s[k-1]) {
			k--
		}
		if j-1-k > 3 {
			break
		}
		j = k
	}
	if j > 0 && (s[j-1] == '-' || s[j-1] == '+') && (j == 1 || !isWordByte(s[j-2]) && s[j-2] != ')' && s[j-2] != '}') {
		j--
	}
	return s[j:end], true
}

// groupOfThree reports whether s[j:] starts with exactly three digits.
func groupOfThree(s string, j int) bool {
	n := 0
	for j+n < len(s) && isDigit(s[j+n]) {
		n++
	}
	return n == 3
}
