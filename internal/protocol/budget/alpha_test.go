package budget

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestFromAlpha(t *testing.T) {
	tests := []struct {
		alpha float64
		total int64
		want  int64
	}{
		{0.25, 100, 25},
		{0.5, 101, 50},
		{0.75, 3, 2},
		{1.0, 12345, 12345},
		{0.29, 100, 29}, // 0.29·100 is 28.999999999999996 in float64
		{0.57, 100, 57}, // 56.99999999999999 in float64
		{0.1, 10, 1},
		{0.3, 10, 3},
		{0.25, 0, 0},
		{0.001, 999, 0},
		{0.5, 1<<62 + 1, 1 << 61},
	}
	for _, tt := range tests {
		got, err := FromAlpha(tt.alpha, tt.total)
		if err != nil {
			t.Fatalf("FromAlpha(%v, %d): %v", tt.alpha, tt.total, err)
		}
		if got != tt.want {
			t.Errorf("FromAlpha(%v, %d) = %d, want %d", tt.alpha, tt.total, got, tt.want)
		}
	}
}

func TestFromAlphaRejects(t *testing.T) {
	for _, alpha := range []float64{0, -0.5, 1.0000001, 2} {
		if _, err := FromAlpha(alpha, 10); err == nil {
			t.Errorf("FromAlpha(%v) accepted", alpha)
		}
	}
	if _, err := FromAlpha(0.5, -1); err == nil {
		t.Error("negative total accepted")
	}
}

// TestFromAlphaMatchesDecimal checks the fast path against exact decimal
// arithmetic on random two- and three-digit fractions.
func TestFromAlphaMatchesDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		digits := 1 + rng.IntN(999) // 0.001 … 0.999
		alpha, _ := strconv.ParseFloat("0."+leftPad(digits), 64)
		if alpha == 0 {
			continue
		}
		total := rng.Int64N(1 << 40)
		r := new(big.Rat).SetFrac64(int64(digits), 1000)
		r.Mul(r, new(big.Rat).SetInt64(total))
		want := new(big.Int).Quo(r.Num(), r.Denom()).Int64()
		got, err := FromAlpha(alpha, total)
		if err != nil || got != want {
			t.Fatalf("FromAlpha(%v, %d) = %d, %v; want %d", alpha, total, got, err, want)
		}
	}
}

func leftPad(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 3 {
		s = "0" + s
	}
	return s
}
