package grading

import (
	"strings"
	"unicode/utf8"
)

// GradeExact grades an exact short answer (HLE exactMatch) against
// spec.Answer by normalized string equality.
//
// Extraction, in order of precedence:
//
//  1. The last line that starts with an answer label: "Answer: …",
//     "Final answer: …", "**Answer:** …", "ANSWER: …" (the HLE response
//     format "Explanation: …\nAnswer: …\nConfidence: …"); the value is the
//     rest of that line, or the next non-empty line when the label is
//     alone on its line; a $$…$$ or \[…\] display starting the value may
//     span lines.
//  2. The last \boxed{…}.
//  3. The last answer statement inside a line ("… so the answer is
//     Paris").
//  4. The last non-empty line that is not a "Confidence:" line.
//
// Normalization (both sides): a small NFKC-like folding with the standard
// library only (full-width ASCII to ASCII, Unicode spaces to a space,
// dashes and the minus sign to "-", curly quotes to straight ones, "…" to
// "...", the ligatures ﬁ ﬂ, superscript digits to ^digit, zero-width
// spaces removed); then, repeatedly, a trailing period, surrounding
// "*", backticks, matching quotes, $ / $$ / \( \) / \[ \] delimiters and a
// whole \boxed{…}, \text{…}, \textbf{…} or \mathrm{…} are removed; then
// Unicode lower-casing and white space collapsed to single spaces. Two
// plain numbers or fractions that are the same rational number (0.5 and
// 1/2) are equal too.
//
// A mismatch is incorrect; the Grader then asks its Judge, if it has one.
func GradeExact(spec Spec, content string) Verdict {
	raw, from := extractExact(content)
	got := normalizeExact(raw)
	if got == "" {
		return Verdict{Outcome: OutcomeNoAnswer, Detail: "no final answer found"}
	}
	want := normalizeExact(spec.Answer)
	v := Verdict{Outcome: OutcomeIncorrect, Extracted: got, Detail: "from " + from}
	if got == want || sameRational(strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(want, " ", "")) {
		v.Outcome = OutcomeCorrect
	}
	return v
}

// extractExact returns the raw final answer and where it came from.
func extractExact(content string) (string, string) {
	if v, _, ok := lastAnswerStatement(content, true); ok {
		return exactValue(v), "answer line"
	}
	if v, _, st := lastBoxed(content); st == extractFound {
		return v, `\boxed{}`
	}
	if v, _, ok := lastAnswerStatement(content, false); ok {
		return exactValue(v), "answer statement"
	}
	rest := content
	for rest != "" {
		rest = strings.TrimRight(rest, " \t\r\n")
		start := strings.LastIndexByte(rest, '\n') + 1
		line := strings.TrimSpace(rest[start:])
		rest = rest[:start]
		l := strings.TrimLeft(line, " \t*_#>")
		if len(l) >= 10 && strings.EqualFold(l[:10], "confidence") {
			continue
		}
		if line != "" {
			return line, "last line"
		}
	}
	return "", ""
}

// exactValue cuts the answer out of the text after an answer label: a
// $$…$$ or \[…\] display that starts it (it may span lines), else its
// first line.
func exactValue(v string) string {
	for _, d := range [...][2]string{{"$$", "$$"}, {`\[`, `\]`}} {
		if strings.HasPrefix(v, d[0]) {
			if e := strings.Index(v[len(d[0]):], d[1]); e >= 0 {
				return v[:len(d[0])+e+len(d[1])]
			}
		}
	}
	return firstLine(v)
}

// exactWrappers are removed when they enclose the whole answer.
var exactWrappers = [...][2]string{
	{"**", "**"}, {"__", "__"}, {"`", "`"}, {"$$", "$$"}, {"$", "$"},
	{`\(`, `\)`}, {`\[`, `\]`}, {`"`, `"`}, {"'", "'"},
}

// exactCommands are unwrapped when they enclose the whole answer.
var exactCommands = [...]string{`\boxed{`, `\text{`, `\textbf{`, `\mathrm{`, `\fbox{`}

// normalizeExact normalizes an exact answer; see GradeExact.
func normalizeExact(s string) string {
	s = strings.TrimSpace(foldUnicode(s))
	for range 16 {
		prev := s
		s = strings.TrimSpace(strings.TrimRight(s, "."))
		s = strings.TrimSpace(strings.Trim(s, "*"))
		for _, w := range exactWrappers {
			if len(s) >= len(w[0])+len(w[1]) && strings.HasPrefix(s, w[0]) && strings.HasSuffix(s, w[1]) {
				s = strings.TrimSpace(s[len(w[0]) : len(s)-len(w[1])])
			}
		}
		for _, c := range exactCommands {
			if strings.HasPrefix(s, c) && matchBrace(s, len(c)-1) == len(s)-1 {
				s = strings.TrimSpace(s[len(c) : len(s)-1])
			}
		}
		if s == prev {
			break
		}
	}
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// foldUnicode is the NFKC-like folding of normalizeExact.
func foldUnicode(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case 0xFF01 <= r && r <= 0xFF5E: // full-width ASCII
			b.WriteRune(r - 0xFEE0)
		case r == 0x3000 || r == 0x00A0 || 0x2000 <= r && r <= 0x200A || r == 0x202F || r == 0x205F:
			b.WriteByte(' ')
		case r == 0x200B || r == 0x200C || r == 0x200D || r == 0xFEFF:
		case 0x2010 <= r && r <= 0x2015 || r == 0x2212 || r == 0xFE63 || r == 0xFF0D:
			b.WriteByte('-')
		case r == 0x2018 || r == 0x2019 || r == 0x201A || r == 0x2032:
			b.WriteByte('\'')
		case r == 0x201C || r == 0x201D || r == 0x201E || r == 0x2033:
			b.WriteByte('"')
		case r == 0x2026:
			b.WriteString("...")
		case r == 0xFB01:
			b.WriteString("fi")
		case r == 0xFB02:
			b.WriteString("fl")
		case r == 0x00B9:
			b.WriteString("^1")
		case r == 0x00B2 || r == 0x00B3:
			b.WriteString("^" + string(rune('0'+r-0x00B0)))
		case r == 0x2070 || 0x2074 <= r && r <= 0x2079:
			b.WriteString("^" + string(rune('0'+r-0x2070)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
