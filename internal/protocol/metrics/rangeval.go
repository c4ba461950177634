package metrics

import "math"

// Range returns max − min of values: the prompt-sensitivity spread of one
// cell's metric across prompt variants (SPEC §5). It returns 0 for fewer than
// two values, and NaN when a value is NaN.
func Range(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	lo, hi := values[0], values[0]
	for _, x := range values {
		if math.IsNaN(x) {
			return math.NaN()
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	return hi - lo
}
