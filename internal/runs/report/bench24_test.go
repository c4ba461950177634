package report

import "math/rand/v2"

// decorate sets a paperScale record's regret decomposition (from V_oracle,
// V_S, V_U and V_E, defined when V_oracle > 0) and plan diagnostics, as a
// grid cell stores them (SPEC §5).
func decorate(r *ScoreRecord, rng *rand.Rand, oracle, vs, vu, ve float64) {
	if oracle > 0 {
		sel, ord, enf := (oracle-vs)/oracle, (vs-vu)/oracle, (vu-ve)/oracle
		pv := vs
		r.PlannedValue, r.Selection, r.Order, r.Enforcement = &pv, &sel, &ord, &enf
	}
	prec, rec, cf, ua := rng.Float64(), rng.Float64(), 2*rng.Float64()-1, rng.Float64()
	r.Precision, r.Recall, r.CostForecast, r.UnderAllocation = &prec, &rec, &cf, &ua
}
