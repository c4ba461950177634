package pool

// Item is one gradeable problem of a pool together with the solver's ground
// truth for it.
type Item struct {
	// ID identifies the problem within its dataset.
	ID string
	// Cost is the number of output tokens the solver spent (c_i > 0).
	Cost int64
	// Value is the problem's worth (v_i > 0; 1 in the main protocol).
	Value float64
	// Correct reports whether the solver's baseline answer was right (y_i).
	Correct bool
}

// Gain returns v_i·y_i: the value the item adds when it is executed.
func (it Item) Gain() float64 {
	if it.Correct {
		return it.Value
	}
	return 0
}

// TotalCost returns Σ c_i over items.
func TotalCost(items []Item) int64 {
	var total int64
	for _, it := range items {
		total += it.Cost
	}
	return total
}

// TotalGain returns Σ v_i·y_i over items, summed in index order. It equals
// SumGain over every index, bit for bit.
func TotalGain(items []Item) float64 {
	var total float64
	for _, it := range items {
		total += it.Gain()
	}
	return total
}

// SumGain returns Σ v_i·y_i over the items whose index is marked in chosen,
// summed in ascending index order. Summing in one fixed order makes equal sets
// give equal float64 values wherever they are computed.
func SumGain(items []Item, chosen []bool) float64 {
	var total float64
	for i, it := range items {
		if chosen[i] {
			total += it.Gain()
		}
	}
	return total
}
