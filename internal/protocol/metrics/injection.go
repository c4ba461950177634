package metrics

// Allocation is one pool item as the unsolvable-injection probe sees it.
type Allocation struct {
	// Unsolvable reports whether the item is an injected unsolvable item
	// (i ∈ U).
	Unsolvable bool
	// Tokens is the item's normalized allocation a_i, 0 when the plan does
	// not attempt it. The item is planned (i ∈ S) iff Tokens > 0; a negative
	// value counts as 0, as normalization would make it.
	Tokens int64
}

// Detection returns the detection rate D = |U \ S| / |U| of SPEC §5 over the
// pool's items (one Allocation per item), and false when U is empty (D is
// undefined; the returned value is then 0).
func Detection(items []Allocation) (float64, bool) {
	var unsolvable, avoided int
	for _, it := range items {
		if it.Unsolvable {
			unsolvable++
			if it.Tokens <= 0 {
				avoided++
			}
		}
	}
	if unsolvable == 0 {
		return 0, false
	}
	return float64(avoided) / float64(unsolvable), true
}

// Waste returns the waste rate W = Σ_{i∈S∩U} a_i / Σ_{i∈S} a_i of SPEC §5 over
// the pool's items (one Allocation per item), and 0 when the plan allocates
// nothing. The sums are accumulated in float64, exact while they stay below
// 2⁵³ tokens.
func Waste(items []Allocation) float64 {
	var wasted, total float64
	for _, it := range items {
		if it.Tokens <= 0 {
			continue
		}
		a := float64(it.Tokens)
		total += a
		if it.Unsolvable {
			wasted += a
		}
	}
	if total == 0 {
		return 0
	}
	return wasted / total
}
