package budget

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// FromAlpha returns ⌊α · total⌋ for α ∈ (0, 1] and total ≥ 0.
//
// α is taken as the shortest decimal that formats to the same float64 (what
// the caller wrote: 0.29, not 0.28999999999999998), and the product is floored
// exactly. The float64 product is used when it is clearly away from an
// integer, which is almost always.
func FromAlpha(alpha float64, total int64) (int64, error) {
	if !(alpha > 0 && alpha <= 1) {
		return 0, fmt.Errorf("alpha must be in (0, 1], got %v", alpha)
	}
	if total < 0 {
		return 0, fmt.Errorf("total cost must be ≥ 0, got %d", total)
	}
	if alpha == 1 {
		return total, nil
	}
	product := alpha * float64(total)
	floor := math.Floor(product)
	// float64 rounding moves the product by far less than this margin.
	margin := 1e-9 + product*1e-12
	if total < 1<<52 && product-floor > margin && floor+1-product > margin {
		return int64(floor), nil
	}
	return exactFloor(alpha, total), nil
}

func exactFloor(alpha float64, total int64) int64 {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(alpha, 'g', -1, 64))
	if !ok {
		r = new(big.Rat).SetFloat64(alpha)
	}
	r.Mul(r, new(big.Rat).SetInt64(total))
	q := new(big.Int).Quo(r.Num(), r.Denom())
	return q.Int64()
}
