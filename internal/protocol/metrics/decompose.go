package metrics

// Losses is the regret decomposition of one plan on one pool (SPEC §5):
// V_oracle − V_E = (V_oracle − V_S) + (V_S − V_U) + (V_U − V_E), each term
// divided by V_oracle. V_S is the best regime-U value of any subset of the
// planned set S that fits the budget.
type Losses struct {
	// Selection is (V_oracle − V_S) / V_oracle ≥ 0: the value the chosen set
	// could not reach.
	Selection float64
	// Order is (V_S − V_U) / V_oracle ≥ 0: the value the order and the early
	// stop lost that the set could have had.
	Order float64
	// Enforcement is (V_U − V_E) / V_oracle, signed: what binding the plan's
	// own allocations cost (negative when they helped).
	Enforcement float64
}

// Decompose returns the Losses of a plan with V_S = vs, V_U = vu and V_E =
// ve on a pool whose oracle is voracle, and true; or the zero Losses and
// false when the decomposition is undefined (as R̃: V_oracle ≤ 0 or an
// argument NaN or infinite). Selection + Order equals R̃_U and Selection +
// Order + Enforcement equals R̃_E up to float64 rounding (≤ 1e-12 for
// values below 2⁴⁰); like Regret, a value above V_oracle by at most Epsilon
// counts as V_oracle.
func Decompose(voracle, vs, vu, ve float64) (Losses, bool) {
	if !finite(vs) || !finite(vu) || !finite(ve) {
		return Losses{}, false
	}
	if _, ok := Regret(vs, voracle); !ok {
		return Losses{}, false
	}
	vs, vu, ve = capAt(vs, voracle), capAt(vu, voracle), capAt(ve, voracle)
	return Losses{
		Selection:   (voracle - vs) / voracle,
		Order:       (vs - vu) / voracle,
		Enforcement: (vu - ve) / voracle,
	}, true
}

// capAt takes a value above the oracle by at most Epsilon as the oracle,
// Regret's convention.
func capAt(v, voracle float64) float64 {
	if v > voracle && v <= voracle+Epsilon {
		return voracle
	}
	return v
}
