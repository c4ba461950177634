package metrics

import (
	"errors"
	"fmt"
	"math"
)

// Errors returned by KendallTauB.
var (
	// ErrLengthMismatch: the two score lists differ in length.
	ErrLengthMismatch = errors.New("metrics: score lists differ in length")
	// ErrTooFew: fewer than two items, so there is no pair to compare.
	ErrTooFew = errors.New("metrics: Kendall's τ_b needs at least two items")
	// ErrAllTied: one list gives every item the same score, so τ_b is 0/0.
	ErrAllTied = errors.New("metrics: a ranking is all ties; Kendall's τ_b is undefined")
	// ErrNaN: a score is NaN and cannot be ranked.
	ErrNaN = errors.New("metrics: a score is NaN")
)

// KendallTauB returns Kendall's τ_b between the rankings that the scores x and
// y induce on the same items (x[i] and y[i] score item i, e.g. one model under
// two prompt variants; SPEC §5):
//
//	τ_b = (n_c − n_d) / √((n₀ − n₁)(n₀ − n₂))
//
// where, over the n₀ = n(n−1)/2 pairs i < j, n_c pairs are ordered alike by x
// and y, n_d are ordered oppositely, n₁ are tied in x and n₂ tied in y (a pair
// tied in both counts in n₁ and n₂). This is scipy.stats.kendalltau's default
// variant. Scores are compared exactly (equal float64 values are ties);
// ±Inf are ordinary extremes. The result lies in [−1, 1]; it is symmetric in
// x and y.
//
// It returns ErrLengthMismatch, ErrTooFew (n < 2), ErrNaN, or ErrAllTied when
// x or y gives every item the same score. It takes O(n²) time, which is
// instant for rankings of tens of models.
func KendallTauB(x, y []float64) (float64, error) {
	if len(x) != len(y) {
		return 0, fmt.Errorf("%w: %d and %d", ErrLengthMismatch, len(x), len(y))
	}
	n := len(x)
	if n < 2 {
		return 0, fmt.Errorf("%w: got %d", ErrTooFew, n)
	}
	for i := range n {
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			return 0, fmt.Errorf("%w (item %d)", ErrNaN, i)
		}
	}
	var concordant, discordant, tiedX, tiedY int64
	for i := range n {
		for j := i + 1; j < n; j++ {
			dx, dy := compare(x[i], x[j]), compare(y[i], y[j])
			switch {
			case dx == 0 && dy == 0:
				tiedX++
				tiedY++
			case dx == 0:
				tiedX++
			case dy == 0:
				tiedY++
			case dx == dy:
				concordant++
			default:
				discordant++
			}
		}
	}
	pairs := int64(n) * int64(n-1) / 2
	if tiedX == pairs || tiedY == pairs {
		return 0, ErrAllTied
	}
	tau := float64(concordant-discordant) /
		math.Sqrt(float64(pairs-tiedX)*float64(pairs-tiedY))
	return max(-1, min(1, tau)), nil
}

// compare returns −1, 0 or +1 as a is below, equal to or above b.
func compare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
