package metrics

import "math"

// Power analysis of a paired difference (SPEC §9 "Power"): a normal
// approximation from the observed SD of the paired differences, at a 5%
// two-sided level and 80% power.
const (
	// PowerLevel is the two-sided significance level of the power analysis.
	PowerLevel = 0.05
	// PowerTarget is the power the minimum detectable difference is for.
	PowerTarget = 0.80
	// PowerDelta is the difference of η that PairedPower.PoolsNeeded is
	// the number of pools to detect.
	PowerDelta = 0.05
)

// zPower is z_{1−PowerLevel/2} + z_{PowerTarget} = z_{0.975} + z_{0.80}
// = 1.959963984540054 + 0.8416212335729143 = 2.8015852181129683, the
// standard normal quantiles computed from math.Erfinv
// (z_p = √2·erf⁻¹(2p − 1)).
var zPower = normalQuantile(1-PowerLevel/2) + normalQuantile(PowerTarget)

// normalQuantile returns the p-quantile of the standard normal distribution.
func normalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// Power is what n paired differences can detect.
type Power struct {
	// N is the number of paired differences.
	N int
	// Defined is false when N < 2: the SD of fewer than two differences is
	// undefined, and so are SD, MDD and PoolsNeeded (then 0).
	Defined bool
	// SD is the sample SD of the differences (n − 1 denominator).
	SD float64
	// MDD is the minimum detectable difference at the N pools:
	// (z_{0.975} + z_{0.80})·SD/√N.
	MDD float64
	// PoolsNeeded is the number of pools needed to detect PowerDelta:
	// ⌈((z_{0.975} + z_{0.80})·SD/PowerDelta)²⌉, and at least 2, the
	// fewest pairs with an SD (so 2 when SD = 0).
	PoolsNeeded int
}

// PairedPower returns the minimum detectable difference of the mean of
// diffs at 80% power and a 5% two-sided level, and the pools needed to
// detect PowerDelta, by the normal approximation from the observed paired
// SD. With SD = 0 (every difference the same) the MDD is 0 and 2 pools are
// needed: the approximation has no noise to overcome. Differences that are
// NaN or infinite, or pools needed beyond math.MaxInt32, make the result
// undefined.
func PairedPower(diffs []float64) Power {
	n := len(diffs)
	p := Power{N: n}
	if n < 2 {
		return p
	}
	var sum float64
	for _, d := range diffs {
		sum += d
	}
	m := sum / float64(n)
	var ss float64
	for _, d := range diffs {
		ss += (d - m) * (d - m)
	}
	sd := math.Sqrt(ss / float64(n-1))
	r := zPower * sd / PowerDelta
	need := math.Ceil(r * r)
	if math.IsNaN(sd) || math.IsInf(sd, 0) || need > math.MaxInt32 {
		return p
	}
	p.Defined = true
	p.SD = sd
	p.MDD = zPower * sd / math.Sqrt(float64(n))
	p.PoolsNeeded = max(int(need), 2)
	return p
}
