package sandbox

import (
	"fmt"
	"strings"
)

// compareStdout applies LiveCodeBench's grade_stdio rule to a program's
// output: both texts are stripped, split on "\n" and each line stripped
// (Python's str.strip); the line counts must agree, and each line must be
// equal or, split on whitespace, parse as the same list of
// decimal.Decimal values. It returns "" when got matches, else a detail.
func compareStdout(got []byte, expected string) string {
	g := strippedLines(strings.ToValidUTF8(string(got), "\uFFFD"))
	e := strippedLines(expected)
	if len(g) != len(e) {
		return fmt.Sprintf("expected %d lines, got %d: expected %s, got %s",
			len(e), len(g), pyRepr(truncate(strings.Join(e, "\n"), 100)), pyRepr(truncate(strings.Join(g, "\n"), 100)))
	}
	for k := range g {
		if g[k] == e[k] || decimalsEqual(g[k], e[k]) {
			continue
		}
		d := fmt.Sprintf("expected %s, got %s", pyRepr(truncate(e[k], 100)), pyRepr(truncate(g[k], 100)))
		if len(g) == 1 {
			return d
		}
		return fmt.Sprintf("line %d: %s", k+1, d)
	}
	return ""
}

// strippedLines is LiveCodeBench's get_stripped_lines.
func strippedLines(s string) []string {
	lines := strings.Split(strings.TrimFunc(s, pyIsSpace), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimFunc(l, pyIsSpace)
	}
	return lines
}

// decimalsEqual reports whether two lines, split on whitespace, are lists
// of equal decimal.Decimal values.
func decimalsEqual(a, b string) bool {
	fa, fb := strings.FieldsFunc(a, pyIsSpace), strings.FieldsFunc(b, pyIsSpace)
	if len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		x, ok := parsePyDecimal(fa[i])
		if !ok {
			return false
		}
		y, ok := parsePyDecimal(fb[i])
		if !ok || !x.equal(y) {
			return false
		}
	}
	return true
}

// truncate shortens s as LiveCodeBench's truncatefn does, keeping both
// ends.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n/2]) + "...(truncated)..." + string(r[len(r)-n/2:])
}

// pyRepr quotes s as Python's repr of a str does (for details only).
func pyRepr(s string) string {
	quote := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}
