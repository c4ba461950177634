package repair

import (
	"math"
	"strings"
)

// number is an allocation read from the plan.
type number struct {
	v         int64
	float     bool // written with a decimal point or an exponent: truncated toward zero
	saturated bool // beyond the int64 range: clamped to it
}

// numberFromLiteral converts a number literal the parser accepted (sign,
// digits possibly grouped by commas, fraction, exponent) to an integer,
// truncating toward zero and saturating at the int64 range. Exactly: no
// floating point is involved, so 1e3 is 1000 and 2.999 is 2.
func numberFromLiteral(lit string) number {
	if len(lit) <= 18 && allDigits(lit) { // the common case, exact in int64
		var v int64
		for i := 0; i < len(lit); i++ {
			v = v*10 + int64(lit[i]-'0')
		}
		return number{v: v}
	}
	neg := false
	switch lit[0] {
	case '-':
		neg = true
		lit = lit[1:]
	case '+':
		lit = lit[1:]
	}
	intPart, frac, exp := lit, "", 0
	float := false
	if e := strings.IndexAny(intPart, "eE"); e >= 0 {
		float = true
		exp = parseExp(intPart[e+1:])
		intPart = intPart[:e]
	}
	if d := strings.IndexByte(intPart, '.'); d >= 0 {
		float = true
		intPart, frac = intPart[:d], intPart[d+1:]
	}
	v, sat := truncate(neg, intPart, frac, exp)
	return number{v: v, float: float, saturated: sat}
}

// parseExp reads an exponent's optional sign and digits, clamped to ±10⁶
// (beyond, the value is 0 or saturated anyway).
func parseExp(s string) int {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	e := 0
	for i := 0; i < len(s) && isDigit(s[i]); i++ {
		if e < 1e6 {
			e = e*10 + int(s[i]-'0')
		}
	}
	e = min(e, 1e6)
	if neg {
		return -e
	}
	return e
}

// truncate returns the integer part of ±intPart.frac × 10^exp, where the
// digit strings may hold ',' or '_' separators (skipped), saturated at the
// int64 range, and whether it saturated.
func truncate(neg bool, intPart, frac string, exp int) (int64, bool) {
	const limit = uint64(1) << 63 // |MinInt64|
	// The integer part is the first point digits of intPart+frac, padded with
	// zeros when point exceeds their count.
	point := exp
	for i := 0; i < len(intPart); i++ {
		if isDigit(intPart[i]) {
			point++
		}
	}
	var acc uint64
	over := false
	taken := 0
	push := func(d byte) {
		if over {
			return
		}
		if acc > (limit-uint64(d))/10 {
			over = true
			return
		}
		acc = acc*10 + uint64(d)
	}
	for _, part := range [2]string{intPart, frac} {
		for i := 0; i < len(part) && taken < point && !over; i++ {
			if c := part[i]; isDigit(c) {
				push(c - '0')
				taken++
			}
		}
	}
	for ; taken < point && acc != 0 && !over; taken++ {
		push(0)
	}
	switch {
	case over && neg:
		return math.MinInt64, true
	case over || !neg && acc > math.MaxInt64:
		return math.MaxInt64, true
	case neg:
		return -int64(acc), false // acc = 2⁶³ gives MinInt64, exactly
	}
	return int64(acc), false
}

// Prefixes of an approximate allocation in a string, matched without regard
// to case, longest first where one is a prefix of another.
var approxPrefixes = []string{
	"approximately", "approx.", "approx", "about", "around", "roughly",
	"up to", "at most", "≈", "≤", "<=", "<", "~",
}

// Units that may follow an allocation in a string, matched without regard to
// case, longest first.
var tokenUnits = []string{"tokens", "token", "toks", "tok"}

// numberFromString reads an allocation written as a string (SPEC §2 step 2),
// in this grammar, with optional spaces between the parts:
//
//	[approximation] [+|-] digits [. digits] [k|K] [unit]
//
// where the approximation is one of approxPrefixes (~, ≈, ≤, <=, <, about,
// approx., approximately, around, roughly, up to, at most), digits may be
// grouped in threes by ',' or '_' ("1,200", "12_000"; the first group then
// has one to three digits), k multiplies by 1000 ("1.5k" is 1500), and the
// unit is one of tokens, token, toks, tok. The result is truncated toward
// zero. Anything else ("500-800", "lots", "1,20", "", "5e3") is not an
// allocation.
func numberFromString(s string) (number, bool) {
	t, neg := stripApproxAndSign(s)
	i, ok := scanGroupedDigits(t)
	if !ok {
		return number{}, false
	}
	intPart := t[:i]
	frac := ""
	float := false
	if i < len(t) && t[i] == '.' {
		float = true
		j := i + 1
		for j < len(t) && isDigit(t[j]) {
			j++
		}
		frac = t[i+1 : j]
		if intPart == "" && frac == "" {
			return number{}, false
		}
		i = j
	}
	exp, ok := scanSuffix(t[i:])
	if !ok {
		return number{}, false
	}
	v, sat := truncate(neg, intPart, frac, exp)
	return number{v: v, float: float, saturated: sat}, true
}

// stripApproxAndSign removes surrounding spaces, one approximation prefix
// and a sign from s, and reports whether the sign was '-'.
func stripApproxAndSign(s string) (t string, neg bool) {
	t = strings.TrimSpace(s)
	if t != "" && !isDigit(t[0]) {
		for _, pre := range approxPrefixes {
			if hasPrefixFold(t, pre) {
				t = strings.TrimSpace(t[len(pre):])
				break
			}
		}
	}
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = strings.TrimSpace(t[1:])
	}
	return t, neg
}

// scanGroupedDigits returns the length of t's integer digits, possibly
// grouped in threes by ',' or '_' (the first group then of one to three
// digits); ok is false when t has neither digits nor a '.' at its start,
// or a separator not followed by a group of three.
func scanGroupedDigits(t string) (i int, ok bool) {
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i == 0 && (i >= len(t) || t[i] != '.') {
		return 0, false
	}
	first := i
	for i+4 <= len(t) && (t[i] == ',' || t[i] == '_') &&
		isDigit(t[i+1]) && isDigit(t[i+2]) && isDigit(t[i+3]) && (i+4 == len(t) || !isDigit(t[i+4])) {
		if first == 0 || first > 3 {
			return 0, false
		}
		i += 4
	}
	if i < len(t) && (t[i] == ',' || t[i] == '_') {
		return 0, false // a separator not followed by a group of three
	}
	return i, true
}

// scanSuffix reads what follows the number: an optional k (exp 3) and an
// optional token unit, with spaces; ok is false when anything else is left.
func scanSuffix(rest string) (exp int, ok bool) {
	rest = strings.TrimSpace(rest)
	if rest != "" && (rest[0] == 'k' || rest[0] == 'K') && (len(rest) == 1 || !isIdentChar(rest[1])) {
		exp = 3
		rest = strings.TrimSpace(rest[1:])
	}
	for _, u := range tokenUnits {
		if hasPrefixFold(rest, u) && (len(rest) == len(u) || !isIdentChar(rest[len(u)])) {
			rest = strings.TrimSpace(rest[len(u):])
			break
		}
	}
	return exp, rest == ""
}

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
