package metrics

import (
	"math"
	"testing"
)

func TestRange(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		want   float64
	}{
		{"empty", nil, 0},
		{"single", []float64{0.4}, 0},
		{"equal", []float64{0.3, 0.3, 0.3}, 0},
		{"spread", []float64{0.25, -0.5, 0.75, 0}, 1.25},
		{"order irrelevant", []float64{0.75, 0, -0.5, 0.25}, 1.25},
		{"NaN", []float64{0.1, math.NaN(), 0.3}, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Range(tt.values)
			if math.IsNaN(tt.want) != math.IsNaN(got) || (!math.IsNaN(got) && got != tt.want) {
				t.Fatalf("Range(%v) = %v, want %v", tt.values, got, tt.want)
			}
		})
	}
}
