package grading

import (
	"fmt"
	"math/big"
	"strings"
)

// This file holds the math grader and the extraction helpers the text
// graders share: StripThinking, the last \boxed{…}, and the last
// "answer" statement.

// StripThinking removes the thinking a reasoning model left inline in its
// content, for servers that return it there (e.g. vLLM without a reasoning
// parser): every <think>…</think> block is removed; a </think> without an
// opening tag (a chat template that pre-fills "<think>") discards
// everything before it; an unclosed <think> discards everything from it on,
// so a response cut off while thinking has no final content at all.
// Content without think tags is returned unchanged; otherwise the result
// is trimmed of surrounding white space.
func StripThinking(content string) string {
	const open, closing = "<think>", "</think>"
	if !strings.Contains(content, "think>") {
		return content
	}
	// parts are the pieces of final content; most responses have one, which
	// is returned without copying.
	var parts []string
	join := func() string {
		switch len(parts) {
		case 0:
			return ""
		case 1:
			return strings.TrimSpace(parts[0])
		}
		return strings.TrimSpace(strings.Join(parts, ""))
	}
	// o and c are the next opening and closing tags at or after i, or -1;
	// each is searched again only once i has passed it, so the scan is
	// linear however many tags there are.
	i := 0
	o, c := indexFrom(content, open, 0), indexFrom(content, closing, 0)
	for {
		if o >= 0 && o < i {
			o = indexFrom(content, open, i)
		}
		if c >= 0 && c < i {
			c = indexFrom(content, closing, i)
		}
		switch {
		case c >= 0 && (o < 0 || c < o):
			parts = parts[:0] // orphan close: what came before was thinking
			i = c + len(closing)
		case o >= 0:
			if o > i {
				parts = append(parts, content[i:o])
			}
			i = o + len(open)
			if c >= 0 && c < i {
				c = indexFrom(content, closing, i)
			}
			if c < 0 {
				return join()
			}
			i = c + len(closing)
		default:
			parts = append(parts, content[i:])
			return join()
		}
	}
}

// indexFrom is strings.Index(s[i:], sub) + i, or -1.
func indexFrom(s, sub string, i int) int {
	if k := strings.Index(s[i:], sub); k >= 0 {
		return i + k
	}
	return -1
}

// GradeMath grades a mathematical final answer against spec.Answer.
//
// Extraction, in order of precedence (the first that finds something
// decides):
//
//  1. The last \boxed{…}, \boxed X or \fbox{…} anywhere in content
//     (braces nest; \{ and \} are escaped braces). Empty boxes are
//     skipped; when every box is empty the answer is no_answer, not the
//     last number.
//  2. The last "answer" statement: "Answer: 42", "**Answer:** 42",
//     "Final Answer: 42", "the final answer is $42$.", "The answer is 42",
//     "The answer should be 42", a "**Final Answer**" heading or a label
//     ending its line followed by the answer on the next non-empty line.
//     The value is its leading $…$ or \(…\) span (on its line) or $$…$$
//     or \[…\] span (which may span lines) when it starts with one, else
//     the text up to the end of its line or of its first sentence.
//  3. The last number in content (a sign, digits with thousands commas,
//     a decimal part), e.g. "… so there are 204 ways".
//
// So "Answer: 42\n\nI hope this helps 1" extracts 42, and a \boxed{} wins
// over any later "Answer:" line. The searches are bounded so that a
// degenerate response (a model repeating itself up to the token limit) is
// graded in linear time: at most the last 64 boxes and the last 64
// occurrences of "answer" are examined, and an extracted answer longer
// than 1024 bytes is incorrect as it stands.
//
// Normalization (reference and extracted alike): $ and \( \) \[ \]
// delimiters, \left/\right, spacing commands (\! \, \; \: ~), \displaystyle,
// degrees (^\circ, °), percent signs (\%, %) and dollar signs are removed;
// \dfrac and \tfrac become \frac, \frac12 becomes \frac{1}{2}; \text{…},
// \textbf{…}, \mathrm{…} and similar wrappers are unwrapped, except that a
// word-only one after a value is a unit and is dropped ("204 \text{
// minutes}" is 204); "x = 5" becomes 5; a trailing period and surrounding
// "*" are removed; {,} is a comma; a string that is one number with
// thousands commas (1,000 or 1{,}000) loses its commas, but "1, 2" stays
// a list; white space is removed; an integer loses its leading zeros.
//
// With spec.Integer (AIME) both sides are compared as integers (as digit
// strings, so any size works): the extracted answer must be an integer
// after normalization — 033, 1{,}000, 204., 204.0, 2^{10} and prose with a
// single integer and words ("There are 204 ways", "204 minutes") qualify;
// anything else (\frac{1}{2}, 3.5, \sqrt{2}, "5 or 6") is incorrect. If the
// reference itself is not an integer, the normalized strings are compared.
// Without Integer the normalized strings are compared, and two plain
// numbers or fractions (0.5, 1/2, \frac{1}{2}, -\frac{3}{4}) are also equal
// when they are the same rational number.
func GradeMath(spec Spec, content string) Verdict {
	raw, from, status := extractMath(content)
	switch status {
	case extractNone:
		return Verdict{Outcome: OutcomeNoAnswer, Detail: "no final answer found"}
	case extractEmpty:
		return Verdict{Outcome: OutcomeNoAnswer, Detail: "empty " + from}
	}
	if len(raw) > maxMathAnswer {
		return Verdict{Outcome: OutcomeIncorrect, Extracted: truncateRunes(raw, 64),
			Detail: fmt.Sprintf("answer of %d bytes (over %d), from %s", len(raw), maxMathAnswer, from)}
	}
	got := cleanMath(raw)
	gotCompact := compactMath(got)
	if gotCompact == "" {
		return Verdict{Outcome: OutcomeNoAnswer, Detail: "empty answer in " + from}
	}
	ref := cleanMath(spec.Answer)
	refCompact := compactMath(ref)
	if spec.Integer {
		if want, ok := mathInteger(ref, refCompact); ok {
			n, ok := mathInteger(got, gotCompact)
			if !ok {
				return Verdict{Outcome: OutcomeIncorrect, Extracted: gotCompact, Detail: "not an integer, from " + from}
			}
			return mathVerdict(n == want, n, from)
		}
	}
	return mathVerdict(gotCompact == refCompact || sameRational(gotCompact, refCompact), gotCompact, from)
}

func mathVerdict(correct bool, extracted, from string) Verdict {
	v := Verdict{Outcome: OutcomeIncorrect, Extracted: extracted, Detail: "from " + from}
	if correct {
		v.Outcome = OutcomeCorrect
	}
	return v
}

// maxMathAnswer bounds the length of a math answer; a longer one (a box
// or statement that swallowed a whole response) is incorrect as it
// stands.
const maxMathAnswer = 1024

type extractStatus int

const (
	extractNone extractStatus = iota
	extractFound
	extractEmpty
)

// extractMath returns the raw final answer and where it came from.
func extractMath(content string) (string, string, extractStatus) {
	if v, _, st := lastBoxed(content); st != extractNone {
		return v, `\boxed{}`, st
	}
	if v, _, ok := lastAnswerStatement(content, false); ok {
		v = mathStatementValue(v)
		if strings.TrimSpace(v) == "" {
			return "", "answer statement", extractEmpty
		}
		return v, "answer statement", extractFound
	}
	if v, ok := lastNumber(content); ok {
		return v, "last number", extractFound
	}
	return "", "", extractNone
}

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

// latexReplacer applies the plain substitutions of the normalization.
var latexReplacer = strings.NewReplacer(
	"\u2212", "-", "\u2013", "-", "\u00a0", " ", "\u2009", " ", "\u202f", " ",
	`\$`, "", "$", "",
	`\(`, "", `\)`, "", `\[`, "", `\]`, "",
	`\!`, "", `\,`, "", `\;`, "", `\:`, "", `\ `, " ", "~", " ",
	`\dfrac`, `\frac`, `\tfrac`, `\frac`,
	`^{\circ}`, "", `^\circ`, "", `\circ`, "", `\degree`, "", "°", "",
	`\%`, "", "%", "",
	"{,}", ",",
)

// unitWrappers are the commands whose argument is text.
var unitWrappers = [...]string{`\text`, `\textbf`, `\textrm`, `\textit`, `\textnormal`, `\mathrm`, `\mathbf`, `\mathit`, `\mbox`, `\boxed`, `\fbox`}

// cleanMath applies the normalization of GradeMath except white space
// removal and leading zeros (see compactMath).
func cleanMath(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if strings.ContainsAny(s, "\\$~%{°\u2212\u2013\u00a0\u2009\u202f") {
		s = latexReplacer.Replace(s)
		s = dropCommand(s, `\left`)
		s = dropCommand(s, `\right`)
		s = dropCommand(s, `\displaystyle`)
		s = unwrapText(s)
		s = bareFracArgs(s)
	}
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "*")
	s = strings.TrimSpace(s)
	for strings.HasSuffix(s, ".") {
		s = strings.TrimSpace(s[:len(s)-1])
	}
	if eq := strings.IndexByte(s, '='); eq > 0 && strings.Count(s, "=") == 1 && isVariable(strings.TrimSpace(s[:eq])) {
		if rhs := strings.TrimSpace(s[eq+1:]); rhs != "" {
			s = rhs
		}
	}
	if n, ok := thousands(s); ok {
		s = n
	}
	return s
}

// compactMath removes white space and the leading zeros of an integer.
func compactMath(s string) string {
	if strings.ContainsAny(s, " \t\n\r") {
		s = strings.Join(strings.Fields(s), "")
	}
	if n, ok := canonicalInteger(s); ok {
		return n
	}
	return s
}

// dropCommand removes every \name not followed by a letter.
func dropCommand(s, name string) string {
	if !strings.Contains(s, name) {
		return s
	}
	var b strings.Builder
	for {
		k := strings.Index(s, name)
		if k < 0 {
			b.WriteString(s)
			return b.String()
		}
		e := k + len(name)
		b.WriteString(s[:k])
		if e < len(s) && isLetter(s[e]) {
			b.WriteString(name)
		}
		s = s[e:]
	}
}

// unwrapText replaces \text{X} (and the other unitWrappers) by X, or
// drops it when X is a unit: words only, after some value.
func unwrapText(s string) string {
	for pass := 0; pass < 64; pass++ {
		changed := false
		for _, w := range unitWrappers {
			k := strings.Index(s, w+"{")
			if k < 0 {
				if k = strings.Index(s, w+" {"); k < 0 {
					continue
				}
			}
			open := strings.IndexByte(s[k:], '{') + k
			c := matchBrace(s, open)
			if c < 0 {
				continue
			}
			inner := s[open+1 : c]
			repl := inner
			if isUnit(inner) && strings.TrimSpace(s[:k]) != "" && strings.Trim(s[c+1:], " \t.") == "" && w != `\boxed` && w != `\fbox` {
				repl = " "
			}
			s = s[:k] + repl + s[c+1:]
			changed = true
		}
		if !changed {
			break
		}
	}
	return s
}

// isUnit reports whether t is words only: letters, spaces, '/', '.',
// '-', with either a leading space or at least two letters.
func isUnit(t string) bool {
	letters := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case isLetter(c):
			letters++
		case c == ' ' || c == '/' || c == '.' || c == '-' || c == '^' || isDigit(c) && i > 0 && t[i-1] == '^':
		default:
			return false
		}
	}
	return letters >= 2 || letters == 1 && strings.HasPrefix(t, " ")
}

// bareFracArgs rewrites \frac12 as \frac{1}{2} and \sqrt2 as \sqrt{2}.
func bareFracArgs(s string) string {
	if !strings.Contains(s, `\frac`) && !strings.Contains(s, `\sqrt`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], `\frac`) && i+6 < len(s) && isDigit(s[i+5]) && isDigit(s[i+6]):
			b.WriteString(`\frac{` + s[i+5:i+6] + "}{" + s[i+6:i+7] + "}")
			i += 6
		case strings.HasPrefix(s[i:], `\sqrt`) && i+5 < len(s) && isDigit(s[i+5]):
			b.WriteString(`\sqrt{` + s[i+5:i+6] + "}")
			i += 5
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// isVariable reports whether v names a variable: a letter, optionally
// with a subscript (x, y_1, a_{n}).
func isVariable(v string) bool {
	if v == "" || !isLetter(v[0]) {
		return false
	}
	rest := v[1:]
	if rest == "" {
		return true
	}
	if rest[0] != '_' {
		return false
	}
	rest = strings.Trim(rest[1:], "{}")
	if rest == "" || len(rest) > 3 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if !isWordByte(rest[i]) {
			return false
		}
	}
	return true
}

// thousands returns s without its commas when s is one number with
// thousands separators (1,000 or -12,345.5).
func thousands(s string) (string, bool) {
	if !strings.Contains(s, ",") {
		return "", false
	}
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	d := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if n := i - d; n < 1 || n > 3 {
		return "", false
	}
	groups := 0
	for i < len(s) && s[i] == ',' {
		if !groupOfThree(s, i+1) {
			return "", false
		}
		i += 4
		groups++
	}
	if groups == 0 {
		return "", false
	}
	if i < len(s) && s[i] == '.' {
		i++
		f := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == f {
			return "", false
		}
	}
	if i != len(s) {
		return "", false
	}
	return strings.ReplaceAll(s, ",", ""), true
}

// canonicalInteger returns s as a canonical integer (no '+', no leading
// zeros, "-0" is "0") when s is digits with an optional sign and an
// optional all-zero decimal part.
func canonicalInteger(s string) (string, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if dot := strings.IndexByte(s, '.'); dot >= 0 {
		if strings.Trim(s[dot+1:], "0") != "" {
			return "", false
		}
		s = s[:dot]
	}
	if s == "" {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return "", false
		}
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return "0", true
	}
	if neg {
		return "-" + s, true
	}
	return s, true
}

// mathInteger reads a normalized answer as an integer: directly, as a
// power of integers (2^{10}), or as prose with exactly one integer and
// words around it ("There are 204 ways").
func mathInteger(clean, compact string) (string, bool) {
	if n, ok := canonicalInteger(compact); ok {
		return n, true
	}
	if n, ok := integerPower(compact); ok {
		return n, true
	}
	return proseInteger(clean)
}

// integerPower evaluates a^b or a^{b} for small non-negative integers.
func integerPower(s string) (string, bool) {
	base, exp, ok := strings.Cut(s, "^")
	if !ok {
		return "", false
	}
	if strings.HasPrefix(exp, "{") && strings.HasSuffix(exp, "}") {
		exp = exp[1 : len(exp)-1]
	}
	a, ok1 := canonicalInteger(base)
	b, ok2 := canonicalInteger(exp)
	if !ok1 || !ok2 || strings.HasPrefix(b, "-") || len(b) > 3 {
		return "", false
	}
	var x, y big.Int
	x.SetString(a, 10)
	y.SetString(b, 10)
	if y.Int64()*int64(len(a)) > 4000 {
		return "", false
	}
	return x.Exp(&x, &y, nil).String(), true
}

// proseInteger reads s as words around exactly one integer: the other
// bytes are letters (in words of two or more, or "a", "A", "I"), white
// space and punctuation, and no word touches the number.
func proseInteger(s string) (string, bool) {
	var num string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isDigit(c) || (c == '-' || c == '+') && i+1 < len(s) && isDigit(s[i+1]):
			if num != "" {
				return "", false
			}
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || s[j] == ',' && groupOfThree(s, j+1)) {
				j++
			}
			if j < len(s) && s[j] == '.' && j+1 < len(s) && isDigit(s[j+1]) {
				return "", false
			}
			if i > 0 && isLetter(s[i-1]) || j < len(s) && isLetter(s[j]) {
				return "", false
			}
			num = strings.ReplaceAll(s[i:j], ",", "")
			i = j
		case isLetter(c):
			j := i
			for j < len(s) && (isLetter(s[j]) || s[j] == '-' || s[j] == '\'') {
				j++
			}
			if w := s[i:j]; len(w) == 1 && w != "a" && w != "A" && w != "I" {
				return "", false
			}
			i = j
		case strings.IndexByte(" \t\n.,;:!?'\"()", c) >= 0:
			i++
		default:
			return "", false
		}
	}
	if num == "" {
		return "", false
	}
	return canonicalInteger(num)
}

// sameRational reports whether a and b are the same rational number, each
// written as an integer, a decimal, a/b, \frac{a}{b} or -\frac{a}{b}.
func sameRational(a, b string) bool {
	x, ok := rational(a)
	if !ok {
		return false
	}
	y, ok := rational(b)
	return ok && x.Cmp(y) == 0
}

func rational(s string) (*big.Rat, bool) {
	if s == "" || len(s) > 64 {
		return nil, false
	}
	neg := ""
	t := s
	if t[0] == '-' {
		neg, t = "-", t[1:]
	}
	if strings.HasPrefix(t, `\frac{`) {
		c := matchBrace(t, 5)
		if c < 0 || c+1 >= len(t) || t[c+1] != '{' || !strings.HasSuffix(t, "}") || matchBrace(t, c+1) != len(t)-1 {
			return nil, false
		}
		t = t[6:c] + "/" + t[c+2:len(t)-1]
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; !isDigit(c) && c != '.' && c != '/' && !(c == '-' && i > 0 && t[i-1] == '/') {
			return nil, false
		}
	}
	if strings.Count(t, "/") == 1 && strings.Contains(t, ".") {
		return nil, false // big.Rat rejects decimals in fractions anyway
	}
	r, ok := new(big.Rat).SetString(neg + t)
	return r, ok
}

func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isLetter(c byte) bool   { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isWordByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' }
func isSpace(c byte) bool    { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
