package metrics

import (
	"math"
	"testing"
)

func TestZPower(t *testing.T) {
	// z_{0.975} = 1.959963984540054, z_{0.80} = 0.8416212335729143 (standard
	// normal tables).
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"z_0.975", normalQuantile(0.975), 1.959963984540054},
		{"z_0.80", normalQuantile(0.80), 0.8416212335729143},
		{"sum", zPower, 2.801585218112968},
	} {
		if math.Abs(tc.got-tc.want) > 1e-12 {
			t.Errorf("%s = %.16g, want %.16g", tc.name, tc.got, tc.want)
		}
	}
}

func TestPairedPower(t *testing.T) {
	const z = 2.801585218112968 // z_{0.975} + z_{0.80}
	tests := []struct {
		name  string
		diffs []float64
		want  Power
	}{
		{"no pairs", nil, Power{}},
		{"one pair is undefined", []float64{0.2}, Power{N: 1}},
		// SD = √(0.02/1) = 0.1414…; MDD = z·0.1414/√2 = z·0.1;
		// needed = (z·0.1414/0.05)² = z²·8 = 62.79 → 63.
		{"two pairs", []float64{0.1, 0.3}, Power{N: 2, Defined: true, SD: math.Sqrt(0.02), MDD: z * 0.1, PoolsNeeded: 63}},
		// mean 0.05; Σ(d − m)² = 0.0025+0.0225+0.0225+0.0025 = 0.05;
		// SD = √(0.05/3) = 0.1291; MDD = z·0.1291/2 = 0.1808;
		// needed = z²·(0.05/3)/0.0025 = z²·6.667 = 52.33 → 53.
		{"four pairs", []float64{0.1, -0.1, 0.2, 0}, Power{N: 4, Defined: true, SD: math.Sqrt(0.05 / 3), MDD: z * math.Sqrt(0.05/3) / 2, PoolsNeeded: 53}},
		{"SD 0: MDD 0, 2 pools", []float64{0.5, 0.5, 0.5}, Power{N: 3, Defined: true, PoolsNeeded: 2}},
		// SD = 0.00707; needed = z²·0.00005/0.0025 = 0.157 → 1, raised to 2.
		{"tiny SD needs at least 2 pools", []float64{0, 0.01}, Power{N: 2, Defined: true, SD: math.Sqrt(0.00005), MDD: z * 0.005, PoolsNeeded: 2}},
		{"NaN is undefined", []float64{0, math.NaN()}, Power{N: 2}},
		{"infinite is undefined", []float64{0, math.Inf(1), 1}, Power{N: 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := PairedPower(tc.diffs)
			if got.N != tc.want.N || got.Defined != tc.want.Defined || got.PoolsNeeded != tc.want.PoolsNeeded ||
				math.Abs(got.SD-tc.want.SD) > 1e-12 || math.Abs(got.MDD-tc.want.MDD) > 1e-12 {
				t.Errorf("PairedPower(%v) = %+v, want %+v", tc.diffs, got, tc.want)
			}
		})
	}
}
