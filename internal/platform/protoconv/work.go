package protoconv

import (
	"math"
	"strconv"
	"strings"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// CheckWork adds a violation at field when work, the size of what a request
// asks a service to compute, exceeds limit. formula names the product and
// its factors as the request gives them, e.g. "items × budgets × samples =
// 100000 × 64 × 1000000"; the description reads "items × budgets × samples =
// 100000 × 64 × 1000000 = 6.4e12 exceeds 1e8, the most one request may ask
// for; …" followed by hint. It reports whether work is within the limit.
func CheckWork(v *apperr.Violations, field, formula string, work, limit float64, hint string) bool {
	if work <= limit {
		return true
	}
	// Enough digits that the two numbers read differently.
	digits := 3
	for digits < 17 && sci(work, digits) == sci(limit, digits) {
		digits++
	}
	v.Add(field, "%s = %s exceeds %s, the most one request may ask for; %s", formula, sci(work, digits), sci(limit, digits), hint)
	return false
}

// sci formats x compactly for messages with the given number of
// significant digits: integers below 10⁶ in full, larger numbers with a
// plain exponent ("6.4e12" at 2 digits).
func sci(x float64, digits int) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e6 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	s := strconv.FormatFloat(x, 'g', digits, 64)
	mant, exp, ok := strings.Cut(s, "e")
	if !ok {
		return s
	}
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	return mant + "e" + sign + strings.TrimLeft(exp[1:], "0")
}
