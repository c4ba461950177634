package injection

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Algorithm names the composition scheme; a change to it is a new name.
const Algorithm = "sha256-keyed-substitution/v1"

// DefaultTwinSuffix turns a base id into its unsolvable twin's id, as the
// AbstentionBench importers name them.
const DefaultTwinSuffix = "-abstain"

// DefaultRatios are the injection ratios of SPEC §5.
var DefaultRatios = []float64{0, 0.25, 0.5, 0.75, 1}

// Spec is what one composition is drawn from.
type Spec struct {
	// Seed seeds both orders.
	Seed uint64
	// Dataset and Pool identify the base pool; IDs are its problems in
	// pool order.
	Dataset string
	Pool    int
	IDs     []string
	// Source lists the unsolvable source's ids (any order, no repeats).
	Source []string
	// Ratio is r in [0, 1].
	Ratio float64
	// TwinSuffix names twins: the twin of base id x is x + TwinSuffix.
	// Empty means DefaultTwinSuffix.
	TwinSuffix string
}

// Composition is one injected pool.
type Composition struct {
	// IDs are the pool's problems in pool order: base ids, and source ids
	// at the substituted positions.
	IDs []string
	// Injected marks, per position, a source (unsolvable) problem.
	Injected []bool
}

// K is the number of positions substituted in a pool of n at ratio r:
// round(r·n), halves away from zero (SPEC §5: r = 0.75, n = 30 → 23).
//
// r·n is computed exactly on the decimal r stands for (its shortest
// representation, the number the config wrote), not in float64: there
// 0.29·50 is 14.4999…, which math.Round would take to 14, where the
// decimal product is 14.5 and rounds to 15. NaN and infinite r give 0.
func K(r float64, n int) int {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return 0
	}
	q, ok := new(big.Rat).SetString(strconv.FormatFloat(r, 'g', -1, 64))
	if !ok {
		return 0
	}
	q.Mul(q, new(big.Rat).SetInt64(int64(n)))
	neg := q.Sign() < 0
	q.Abs(q)
	q.Add(q, big.NewRat(1, 2))
	k := new(big.Int).Quo(q.Num(), q.Denom()) // ⌊|r·n| + ½⌋
	if neg {
		k.Neg(k)
	}
	return int(k.Int64())
}

// Compose draws the composition of one base pool at one ratio by the rule
// of the package documentation. It fails when the ratio is outside [0, 1],
// an id repeats, or the source has fewer than k usable items.
func Compose(s Spec) (Composition, error) {
	if !(s.Ratio >= 0 && s.Ratio <= 1) {
		return Composition{}, fmt.Errorf("injection: ratio must be in [0, 1], got %v", s.Ratio)
	}
	suffix := s.TwinSuffix
	if suffix == "" {
		suffix = DefaultTwinSuffix
	}
	n := len(s.IDs)
	k := K(s.Ratio, n)
	if err := distinct("pool", s.IDs); err != nil {
		return Composition{}, err
	}
	if err := distinct("source", s.Source); err != nil {
		return Composition{}, err
	}
	positions := make([]int, n)
	for i := range positions {
		positions[i] = i
	}
	posKeys := make([][]byte, n)
	for i, id := range s.IDs {
		posKeys[i] = key("triage/injection/positions/v1", s.Seed, s.Dataset, s.Pool, id)
	}
	slices.SortFunc(positions, func(a, b int) int {
		if c := bytes.Compare(posKeys[a], posKeys[b]); c != 0 {
			return c
		}
		return a - b
	})
	substituted := positions[:k]
	slices.Sort(substituted)
	twins := map[string]bool{}
	out := Composition{IDs: slices.Clone(s.IDs), Injected: make([]bool, n)}
	for _, p := range substituted {
		out.Injected[p] = true
	}
	for i, id := range s.IDs {
		if !out.Injected[i] {
			twins[id+suffix] = true
		}
	}
	source := slices.Clone(s.Source)
	srcKeys := make(map[string][]byte, len(source))
	for _, id := range source {
		srcKeys[id] = key("triage/injection/source/v1", s.Seed, s.Dataset, s.Pool, id)
	}
	slices.SortFunc(source, func(a, b string) int {
		if c := bytes.Compare(srcKeys[a], srcKeys[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	next := 0
	for _, p := range substituted {
		for next < len(source) && twins[source[next]] {
			next++
		}
		if next == len(source) {
			return Composition{}, fmt.Errorf("injection: pool %d of %s needs %d unsolvable items at r = %v, but the source has only %d usable (%d items, twins of the pool's remaining problems excluded)",
				s.Pool, s.Dataset, k, s.Ratio, usable(source, twins), len(source))
		}
		out.IDs[p] = source[next]
		next++
	}
	return out, nil
}

// distinct fails when ids holds an empty or repeated id.
func distinct(what string, ids []string) error {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		switch {
		case id == "":
			return errors.New("injection: " + what + " ids must not be empty")
		case seen[id]:
			return fmt.Errorf("injection: %s id %q repeats", what, id)
		}
		seen[id] = true
	}
	return nil
}

func usable(source []string, twins map[string]bool) int {
	n := 0
	for _, id := range source {
		if !twins[id] {
			n++
		}
	}
	return n
}

// key hashes a domain tag, the seed, the dataset, the pool index and an id.
func key(tag string, seed uint64, dataset string, pool int, id string) []byte {
	h := sha256.New()
	h.Write([]byte(tag))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	binary.BigEndian.PutUint64(b[:], uint64(pool))
	h.Write(b[:])
	for _, s := range []string{dataset, id} {
		binary.BigEndian.PutUint64(b[:], uint64(len(s)))
		h.Write(b[:])
		h.Write([]byte(s))
	}
	return h.Sum(nil)
}
