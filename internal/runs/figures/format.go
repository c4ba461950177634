package figures

import (
	"fmt"
	"strings"
)

// undefinedText is how a figure prints an undefined mean, as the report's
// tables do.
const undefinedText = "—"

// solverLabel names a solver the way the paper's figures do: the model,
// then [std] or [ext] for the standard and extended modes, or the mode
// itself in brackets.
func solverLabel(model, mode string) string {
	switch mode {
	case "standard":
		return model + " [std]"
	case "extended":
		return model + " [ext]"
	}
	return model + " [" + mode + "]"
}

// countRange tells how many pools a figure's means averaged: "n = 3" or
// "n = 2–4"; "n = 0" when there is none.
type countRange struct {
	lo, hi int
	seen   bool
}

// add records one mean's pool count.
func (r *countRange) add(n int) {
	if !r.seen {
		r.lo, r.hi, r.seen = n, n, true
		return
	}
	r.lo, r.hi = min(r.lo, n), max(r.hi, n)
}

// String implements fmt.Stringer.
func (r countRange) String() string {
	if r.lo == r.hi {
		return fmt.Sprintf("n = %d", r.lo)
	}
	return fmt.Sprintf("n = %d–%d", r.lo, r.hi)
}

// fileStem turns parts into a file name stem: the non-empty parts joined
// by "_", lower case, every rune outside [a-z0-9._-] replaced by "-".
func fileStem(parts ...string) string {
	var b strings.Builder
	for i, p := range parts {
		if p == "" {
			continue
		}
		if i > 0 && b.Len() > 0 {
			b.WriteByte('_')
		}
		for _, r := range p {
			switch {
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
				b.WriteRune(r)
			case r >= 'A' && r <= 'Z':
				b.WriteRune(r - 'A' + 'a')
			default:
				b.WriteByte('-')
			}
		}
	}
	return b.String()
}
