package metrics

import "testing"

func TestDetection(t *testing.T) {
	tests := []struct {
		name  string
		items []Allocation
		want  float64
		ok    bool
	}{
		{"no items", nil, 0, false},
		{"no unsolvable", []Allocation{{Tokens: 5}, {}}, 0, false},
		{"all avoided", []Allocation{{Unsolvable: true}, {Unsolvable: true}, {Tokens: 9}}, 1, true},
		{"none avoided", []Allocation{{Unsolvable: true, Tokens: 1}, {Unsolvable: true, Tokens: 3}}, 0, true},
		{"one of four avoided", []Allocation{
			{Unsolvable: true, Tokens: 1}, {Unsolvable: true, Tokens: 3},
			{Unsolvable: true}, {Unsolvable: true, Tokens: 7}, {Tokens: 100},
		}, 0.25, true},
		{"negative allocation is not planned", []Allocation{{Unsolvable: true, Tokens: -4}, {Unsolvable: true, Tokens: 2}}, 0.5, true},
		{"full injection, nothing planned", []Allocation{{Unsolvable: true}, {Unsolvable: true}, {Unsolvable: true}}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Detection(tt.items)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("Detection = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestWaste(t *testing.T) {
	tests := []struct {
		name  string
		items []Allocation
		want  float64
	}{
		{"no items", nil, 0},
		{"nothing allocated", []Allocation{{Unsolvable: true}, {}}, 0},
		{"only negative allocations", []Allocation{{Unsolvable: true, Tokens: -3}, {Tokens: -1}}, 0},
		{"no unsolvable planned", []Allocation{{Unsolvable: true}, {Tokens: 10}}, 0},
		{"all on unsolvable", []Allocation{{Unsolvable: true, Tokens: 10}, {}}, 1},
		{"quarter", []Allocation{{Unsolvable: true, Tokens: 100}, {Tokens: 300}, {Unsolvable: true}}, 0.25},
		{"negative ignored in both sums", []Allocation{{Unsolvable: true, Tokens: 100}, {Tokens: 100}, {Unsolvable: true, Tokens: -50}}, 0.5},
		{"full injection", []Allocation{{Unsolvable: true, Tokens: 7}, {Unsolvable: true, Tokens: 3}}, 1},
		{"huge allocations", []Allocation{{Unsolvable: true, Tokens: 1 << 62}, {Tokens: 1 << 62}, {Tokens: 1 << 62}, {Tokens: 1 << 62}}, 0.25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Waste(tt.items); got != tt.want {
				t.Fatalf("Waste = %v, want %v", got, tt.want)
			}
		})
	}
}
