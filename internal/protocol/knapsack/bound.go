package knapsack

// lpBound holds the items of the general search in density order together
// with prefix sums of their costs and values, so that the Dantzig (LP
// relaxation) bound of a partial solution costs one binary search.
type lpBound struct {
	pc      []int64   // pc[k] = Σ cost of items 0..k-1
	pv      []float64 // pv[k] = Σ value of items 0..k-1 (compensated sum)
	density []float64 // density[k] = value/cost of item k
}

// newLPBound builds the prefix sums of its, which must be in density order
// and have a total cost that fits in int64. Values are summed with Neumaier
// compensation so that differences pv[j]−pv[k] are accurate to a few ulps of
// pv[len(its)].
func newLPBound(its []densityItem) *lpBound {
	m := len(its)
	b := &lpBound{
		pc:      make([]int64, m+1),
		pv:      make([]float64, m+1),
		density: make([]float64, m),
	}
	var sum, comp float64
	for k, it := range its {
		b.pc[k+1] = b.pc[k] + it.cost
		t := sum + it.value
		if abs(sum) >= abs(it.value) {
			comp += (sum - t) + it.value
		} else {
			comp += (it.value - t) + sum
		}
		sum = t
		b.pv[k+1] = sum + comp
		b.density[k] = it.density
	}
	return b
}

// fill returns the largest j in [k, m] such that items k..j-1 together cost
// at most r, where m is the number of items.
func (b *lpBound) fill(k int, r int64) int {
	m := len(b.density)
	if b.pc[m]-b.pc[k] <= r {
		return m
	}
	target := b.pc[k] + r // < pc[m], so no overflow
	lo, hi := k+1, m      // pc[hi] > target always holds
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if b.pc[mid] > target {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo - 1
}

// eval bounds the completions of a partial solution of value p that has r
// capacity left and may still take items k..m-1. It returns the Dantzig upper
// bound ub (whole items k..j-1 plus the fitting fraction of item j) and j;
// p + pv[j] − pv[k] is the value of a feasible completion (taking k..j-1).
func (b *lpBound) eval(k int, r int64, p float64) (ub, lb float64, j int) {
	j = b.fill(k, r)
	lb = p + (b.pv[j] - b.pv[k])
	ub = lb
	if j < len(b.density) {
		ub += float64(r-(b.pc[j]-b.pc[k])) * b.density[j]
	}
	return ub, lb, j
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
