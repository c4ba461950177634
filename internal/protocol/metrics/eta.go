package metrics

import "math"

// Epsilon is the absolute tolerance ε of SPEC §5's η boundary convention. It
// is far above the rounding error of summing a pool's values (tens of values
// of order 1) and far below any real difference between two values (a whole
// item is worth v > 0, and 1 in the main protocol).
const Epsilon = 1e-9

// Eta returns the triage efficiency η of SPEC §5:
//
//	η = (V_M − V_random) / (V_oracle − V_random)   when V_oracle − V_random > ε,
//	η = 1 if V_M ≥ V_oracle − ε, else 0            otherwise.
//
// The second line covers pools where random already attains the oracle:
// nothing solvable (V_oracle = V_random = 0, so η = 1 whenever V_M ≥ −ε) and
// the α = 1 collapse. A V_M above V_oracle by at most ε (rounding: the two are
// summed in different orders) counts as V_oracle, so a feasible V_M never
// gives η > 1; a larger excess is returned as computed, to expose the
// infeasible value rather than hide it. η is negative when V_M is below
// V_random. Eta returns NaN when an argument is NaN or infinite.
func Eta(vm, voracle, vrandom float64) float64 {
	if !finite(vm) || !finite(voracle) || !finite(vrandom) {
		return math.NaN()
	}
	gap := voracle - vrandom
	if !(gap > Epsilon) {
		if vm >= voracle-Epsilon {
			return 1
		}
		return 0
	}
	if vm > voracle && vm <= voracle+Epsilon {
		return 1
	}
	return (vm - vrandom) / gap
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
