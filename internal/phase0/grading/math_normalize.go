package grading

import (
	"math/big"
	"strings"
)

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
