package sandbox

import (
	"strings"
	"unicode"
)

// pyDecimal is a value of Python's decimal.Decimal, as its constructor
// parses a string, reduced to what equality needs.
type pyDecimal struct {
	kind byte // 'f' finite, 'i' infinite, 'n' NaN (quiet or signalling)
	neg  bool
	// digits is the coefficient without leading or trailing zeros ("" for
	// zero) and exp the power of ten it is multiplied by.
	digits string
	exp    int64
}

// maxExponentDigits: exponents beyond ±10^18 are rejected (libmpdec
// accepts up to 999999999999999999; the exact boundary is not modelled).
const maxExponentDigits = 18

// parsePyDecimal parses s as decimal.Decimal(s) does: underscores are
// dropped anywhere, Unicode decimal digits count as digits, and the syntax
// is [sign] (digits [. [digits]] | . digits) [e [sign] digits], or
// [sign] Inf/Infinity, or [sign] [s]NaN [digits], case-insensitively.
func parsePyDecimal(s string) (pyDecimal, bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '_':
		case r > 0 && r < 128:
			b.WriteRune(r)
		default:
			d, ok := digitValue(r)
			if !ok {
				return pyDecimal{}, false
			}
			b.WriteByte(byte('0' + d))
		}
	}
	t := b.String()
	d := pyDecimal{kind: 'f'}
	if t != "" && (t[0] == '+' || t[0] == '-') {
		d.neg = t[0] == '-'
		t = t[1:]
	}
	lower := strings.ToLower(t)
	switch {
	case lower == "inf" || lower == "infinity":
		d.kind = 'i'
		return d, true
	case strings.HasPrefix(lower, "nan"):
		d.kind = 'n'
		return d, allDigits(lower[3:])
	case strings.HasPrefix(lower, "snan"):
		d.kind = 'n'
		return d, allDigits(lower[4:])
	}
	mant, expPart := t, ""
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		mant, expPart = t[:i], t[i+1:]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if !allDigits(intPart) || !allDigits(frac) || intPart+frac == "" {
		return pyDecimal{}, false
	}
	var exp int64
	if strings.ContainsAny(t, "eE") {
		neg := false
		if expPart != "" && (expPart[0] == '+' || expPart[0] == '-') {
			neg = expPart[0] == '-'
			expPart = expPart[1:]
		}
		if expPart == "" || !allDigits(expPart) {
			return pyDecimal{}, false
		}
		expPart = strings.TrimLeft(expPart, "0")
		if len(expPart) > maxExponentDigits {
			return pyDecimal{}, false
		}
		for _, c := range expPart {
			exp = exp*10 + int64(c-'0')
		}
		if neg {
			exp = -exp
		}
	}
	coeff := strings.TrimLeft(intPart+frac, "0")
	exp -= int64(len(frac))
	trimmed := strings.TrimRight(coeff, "0")
	exp += int64(len(coeff) - len(trimmed))
	d.digits, d.exp = trimmed, exp
	if trimmed == "" {
		d.exp, d.neg = 0, false
	}
	return d, true
}

// equal is Decimal's ==: numeric equality, NaN equal to nothing.
func (d pyDecimal) equal(e pyDecimal) bool {
	if d.kind == 'n' || e.kind == 'n' || d.kind != e.kind {
		return false
	}
	if d.kind == 'i' {
		return d.neg == e.neg
	}
	return d.neg == e.neg && d.digits == e.digits && d.exp == e.exp
}

// allDigits reports whether s holds only ASCII digits (true for "").
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// digitValue is the value of a Unicode decimal digit (category Nd), as
// Python's str.isdecimal digits: Unicode encodes them in runs of ten
// consecutive code points, 0 to 9.
func digitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if !unicode.IsDigit(r) {
		return 0, false
	}
	start := r
	for unicode.IsDigit(start - 1) {
		start--
	}
	return int(r-start) % 10, true
}

// pyIsSpace is Python's str.isspace for one character: Unicode White_Space
// and the four ASCII separators 0x1C to 0x1F.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}
