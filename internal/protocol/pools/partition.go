package pools

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// DefaultSize is the pool size used when Partition is given 0.
const DefaultSize = 30

// Algorithm names the partition scheme; a change to it is a new name.
const Algorithm = "sha256-keyed-order/v1"

// Pool is one chunk of a dataset's partition.
type Pool struct {
	// Dataset is the dataset the problems belong to.
	Dataset string `json:"dataset"`
	// Index is the pool's 0-based position in the partition.
	Index int `json:"index"`
	// ProblemIDs are the pool's problems in pool order.
	ProblemIDs []string `json:"problem_ids"`
	// Short reports the last chunk, smaller than the requested size.
	Short bool `json:"short"`
}

// Partition splits the ids of one dataset into pools of size problems
// (DefaultSize when size is 0) in the seeded order described in the package
// documentation. ids must be non-empty strings without repeats; their order
// does not matter. No ids give no pools.
func Partition(dataset string, ids []string, size int, seed uint64) ([]Pool, error) {
	switch {
	case dataset == "":
		return nil, errors.New("pools: dataset must not be empty")
	case size < 0:
		return nil, fmt.Errorf("pools: size must be ≥ 0 (0 means %d), got %d", DefaultSize, size)
	case size == 0:
		size = DefaultSize
	}
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	for i, id := range sorted {
		if id == "" {
			return nil, errors.New("pools: a problem id is empty")
		}
		if i > 0 && sorted[i-1] == id {
			return nil, fmt.Errorf("pools: problem id %q appears more than once", id)
		}
	}
	keys := make(map[string][]byte, len(sorted))
	for _, id := range sorted {
		keys[id] = Key(seed, dataset, id)
	}
	slices.SortStableFunc(sorted, func(a, b string) int {
		if c := bytes.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	pools := []Pool{}
	for start := 0; start < len(sorted); start += size {
		chunk := sorted[start:min(start+size, len(sorted))]
		pools = append(pools, Pool{
			Dataset:    dataset,
			Index:      len(pools),
			ProblemIDs: slices.Clip(chunk),
			Short:      len(chunk) < size,
		})
	}
	return pools, nil
}

// Key returns the sort key of id: SHA-256 over a domain tag, the seed and
// the length-prefixed dataset and id.
func Key(seed uint64, dataset, id string) []byte {
	h := sha256.New()
	h.Write([]byte("triage/pools/v1"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	for _, s := range []string{dataset, id} {
		binary.BigEndian.PutUint64(b[:], uint64(len(s)))
		h.Write(b[:])
		h.Write([]byte(s))
	}
	return h.Sum(nil)
}
