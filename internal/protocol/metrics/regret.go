package metrics

// Regret returns the normalized regret R̃ = (V_oracle − V_M) / V_oracle of
// SPEC §5 and true, or 0 and false when R̃ is undefined: V_oracle ≤ 0, or an
// argument is NaN or infinite. As in Eta, a V_M above V_oracle by at most
// Epsilon counts as V_oracle (R̃ = 0); the result is not otherwise clamped, so
// a feasible V_M gives R̃ ∈ [0, 1] and an infeasible one shows as R̃ < 0.
func Regret(vm, voracle float64) (float64, bool) {
	if !finite(vm) || !finite(voracle) || !(voracle > 0) {
		return 0, false
	}
	if vm > voracle && vm <= voracle+Epsilon {
		return 0, true
	}
	return (voracle - vm) / voracle, true
}
