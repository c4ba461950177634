package metrics

import (
	"math"
	"slices"
)

// PlannedItem is one pool item as the plan diagnostics see it.
type PlannedItem struct {
	// Tokens is the item's normalized allocation a_i, 0 when the plan does
	// not attempt it (i ∉ S).
	Tokens int64
	// Cost is the solver's ground-truth cost c_i > 0.
	Cost int64
	// Solvable reports whether the item can add value (i ∈ Y: y_i = 1).
	Solvable bool
}

// Diagnostics are a plan's diagnostics on one pool (SPEC §5). A nil field
// is undefined for this plan and pool.
type Diagnostics struct {
	// Precision is |S ∩ Y| / |S|, nil when S is empty.
	Precision *float64
	// Recall is |S ∩ Y| / |Y|, nil when Y is empty.
	Recall *float64
	// CostForecast is the median of log₂(a_i / c_i) over S (the mean of
	// the two middle values for an even |S|), nil when S is empty: 0 is a
	// planner that forecasts its costs exactly, −1 one that allocates half.
	CostForecast *float64
	// UnderAllocation is the share of S ∩ Y with a_i < c_i (the items
	// regime E truncates that would have scored), nil when S ∩ Y is empty.
	UnderAllocation *float64
}

// Diagnose returns the Diagnostics of a plan over the pool's items (one
// PlannedItem per item, any order).
func Diagnose(items []PlannedItem) Diagnostics {
	var planned, solvable, hits, under int
	var buf [64]float64 // the logs of a small pool, on the stack
	logs := buf[:0]
	if len(items) > len(buf) {
		logs = make([]float64, 0, len(items))
	}
	for _, it := range items {
		if it.Solvable {
			solvable++
		}
		if it.Tokens <= 0 {
			continue
		}
		planned++
		logs = append(logs, math.Log2(float64(it.Tokens)/float64(it.Cost)))
		if it.Solvable {
			hits++
			if it.Tokens < it.Cost {
				under++
			}
		}
	}
	var d Diagnostics
	if planned == 0 && solvable == 0 {
		return d
	}
	vals := new([4]float64) // one allocation for the defined fields
	if planned > 0 {
		d.Precision = ratio(&vals[0], hits, planned)
		d.CostForecast = median(&vals[1], logs)
	}
	if solvable > 0 {
		d.Recall = ratio(&vals[2], hits, solvable)
	}
	if hits > 0 {
		d.UnderAllocation = ratio(&vals[3], under, hits)
	}
	return d
}

// ratio stores a/b in dst and returns dst.
func ratio(dst *float64, a, b int) *float64 {
	*dst = float64(a) / float64(b)
	return dst
}

// median stores the median of xs (not empty) in dst and returns dst,
// sorting xs in place.
func median(dst *float64, xs []float64) *float64 {
	slices.Sort(xs)
	m := xs[len(xs)/2]
	if len(xs)%2 == 0 {
		m = (xs[len(xs)/2-1] + m) / 2
	}
	*dst = m
	return dst
}
