package metrics

import (
	"math"
	"reflect"
	"testing"
)

func TestScore(t *testing.T) {
	s := Score(3, 4, 2)
	want := PoolScore{Eta: 0.5, Regret: 0.25, RegretDefined: true, VOracle: 4}
	if s != want {
		t.Fatalf("Score = %+v, want %+v", s, want)
	}
	s = Score(0, 0, 0)
	want = PoolScore{Eta: 1, VOracle: 0, Degenerate: DegenerateNoValue}
	if s != want {
		t.Fatalf("Score(nothing solvable) = %+v, want %+v", s, want)
	}
	if got := Exclude(ExcludedUnparseable); got != (PoolScore{Excluded: ExcludedUnparseable}) {
		t.Fatalf("Exclude = %+v", got)
	}
}

func TestAggregate(t *testing.T) {
	tests := []struct {
		name   string
		scores []PoolScore
		want   Cell
	}{
		{
			name: "empty cell",
			want: Cell{Excluded: []ReasonCount{}},
		},
		{
			name:   "all excluded",
			scores: []PoolScore{Exclude(ExcludedUnparseable), Exclude(ExcludedError), Exclude(ExcludedUnparseable)},
			want: Cell{Pools: 3, Excluded: []ReasonCount{
				{ExcludedError, 1}, {ExcludedUnparseable, 2},
			}},
		},
		{
			name: "mixed",
			scores: []PoolScore{
				Score(3, 4, 2), // η 0.5, R̃ 0.25
				Score(1, 4, 2), // η −0.5, R̃ 0.75
				Score(0, 0, 0), // η 1, R̃ undefined
				Exclude(ExcludedUnparseable),
				Score(4, 4, 4),     // η 1, R̃ 0
				Exclude("timeout"), // caller-defined reason
			},
			want: Cell{
				Pools:           6,
				Eta:             Mean{Value: 2.0 / 4, N: 4, Defined: true},
				Degenerate:      DegenerateCounts{NoValue: 1, Collapse: 1},
				Informative:     Mean{Value: 0, N: 2, Defined: true},
				Regret:          Mean{Value: 1.0 / 3, N: 3, Defined: true},
				Excluded:        []ReasonCount{{"timeout", 1}, {ExcludedUnparseable, 1}},
				RegretUndefined: 1,
			},
		},
		{
			name:   "only nothing-solvable pools: η defined, R̃ undefined",
			scores: []PoolScore{Score(0, 0, 0), Score(0, 0, 0)},
			want: Cell{
				Pools: 2, Eta: Mean{Value: 1, N: 2, Defined: true}, Degenerate: DegenerateCounts{NoValue: 2},
				Excluded: []ReasonCount{}, RegretUndefined: 2,
			},
		},
		{
			name: "invalid records",
			scores: []PoolScore{
				{Eta: math.NaN(), VOracle: 1, RegretDefined: true},
				{Eta: 0.5, VOracle: 2, RegretDefined: false},
				{Eta: 0.5, VOracle: 0, RegretDefined: true},
				{Eta: 0.5, VOracle: 2, RegretDefined: true, Regret: math.Inf(1)},
				{Eta: 0.5, VOracle: math.Inf(1)},
				Score(2, 2, 1),
			},
			want: Cell{
				Pools:       6,
				Eta:         Mean{Value: 1, N: 1, Defined: true},
				Informative: Mean{Value: 1, N: 1, Defined: true},
				Regret:      Mean{Value: 0, N: 1, Defined: true},
				Excluded:    []ReasonCount{{ExcludedInvalid, 5}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Aggregate(tt.scores)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Aggregate =\n%+v\nwant\n%+v", got, tt.want)
			}
			excluded := 0
			for _, e := range got.Excluded {
				excluded += e.Count
			}
			if got.Eta.N+excluded != got.Pools || got.Regret.N+got.RegretUndefined != got.Eta.N ||
				got.Informative.N+got.Degenerate.Total() != got.Eta.N {
				t.Fatalf("counts do not add up: %+v", got)
			}
		})
	}
}
