package repair

import (
	"math"
	"testing"
)

func TestNumberFromString(t *testing.T) {
	tests := []struct {
		in    string
		v     int64
		float bool
		ok    bool
	}{
		{"800", 800, false, true},
		{" 800 ", 800, false, true},
		{"1,200", 1200, false, true},
		{"12,000,000", 12000000, false, true},
		{"12_000", 12000, false, true},
		{"~500", 500, false, true},
		{"≈500", 500, false, true},
		{"<= 500", 500, false, true},
		{"≤500", 500, false, true},
		{"about 500", 500, false, true},
		{"Approx. 500 tokens", 500, false, true},
		{"approximately 1,500 tokens", 1500, false, true},
		{"up to 2k", 2000, false, true},
		{"at most 300 TOKENS", 300, false, true},
		{"500 tokens", 500, false, true},
		{"500tokens", 500, false, true},
		{"1 token", 1, false, true},
		{"500 tok", 500, false, true},
		{"1.5k", 1500, true, true},
		{"1.5K tokens", 1500, true, true},
		{"2k", 2000, false, true},
		{"1.2345k", 1234, true, true},
		{"2.5", 2, true, true},
		{".5", 0, true, true},
		{"5.", 5, true, true},
		{"-300", -300, false, true},
		{"+300", 300, false, true},
		{"~ -300", -300, false, true},
		{"0", 0, false, true},
		{"99999999999999999999", math.MaxInt64, false, true},
		{"", 0, false, false},
		{"lots", 0, false, false},
		{"500-800", 0, false, false},
		{"1,20", 0, false, false},
		{"1,2000", 0, false, false},
		{"1234,567", 0, false, false},
		{",500", 0, false, false},
		{"500,", 0, false, false},
		{"5e3", 0, false, false},
		{"500 words", 0, false, false},
		{"2kb", 0, false, false},
		{"k", 0, false, false},
		{".", 0, false, false},
		{"~", 0, false, false},
		{"500 tokens each", 0, false, false},
	}
	for _, tt := range tests {
		got, ok := numberFromString(tt.in)
		if ok != tt.ok || ok && (got.v != tt.v || got.float != tt.float) {
			t.Errorf("numberFromString(%q) = %+v, %v; want %d float=%v, %v", tt.in, got, ok, tt.v, tt.float, tt.ok)
		}
	}
}

func TestNumberFromLiteral(t *testing.T) {
	tests := []struct {
		in    string
		v     int64
		float bool
		sat   bool
	}{
		{"0", 0, false, false},
		{"-0", 0, false, false},
		{"800", 800, false, false},
		{"+800", 800, false, false},
		{"007", 7, false, false},
		{"800.9", 800, true, false},
		{"-800.9", -800, true, false},
		{".5", 0, true, false},
		{"5.", 5, true, false},
		{"1e3", 1000, true, false},
		{"1.5E3", 1500, true, false},
		{"15e-1", 1, true, false},
		{"123456e-3", 123, true, false},
		{"1e-1000000000", 0, true, false},
		{"0e999999999999", 0, true, false},
		{"1,200", 1200, false, false},
		{"9223372036854775807", math.MaxInt64, false, false},
		{"9223372036854775808", math.MaxInt64, false, true},
		{"-9223372036854775808", math.MinInt64, false, false},
		{"-9223372036854775809", math.MinInt64, false, true},
		{"1e19", math.MaxInt64, true, true},
		{"1e999999999999", math.MaxInt64, true, true},
		{"-1e400", math.MinInt64, true, true},
		{"922337203685477580.79e1", math.MaxInt64, true, false},
	}
	for _, tt := range tests {
		got := numberFromLiteral(tt.in)
		if got.v != tt.v || got.float != tt.float || got.saturated != tt.sat {
			t.Errorf("numberFromLiteral(%q) = %+v; want %d float=%v saturated=%v", tt.in, got, tt.v, tt.float, tt.sat)
		}
	}
}
