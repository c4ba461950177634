package pools

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%d", i)
	}
	return out
}

// TestGolden pins the algorithm: a change to the order breaks every
// recorded partition and must come with a new Algorithm name. The order was
// checked against an independent implementation (Python hashlib).
func TestGolden(t *testing.T) {
	got, err := Partition("synth-math", ids(10), 4, 42)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"dataset":"synth-math","index":0,"problem_ids":["p6","p5","p4","p9"],"short":false},` +
		`{"dataset":"synth-math","index":1,"problem_ids":["p1","p7","p3","p2"],"short":false},` +
		`{"dataset":"synth-math","index":2,"problem_ids":["p8","p0"],"short":true}]`
	if string(b) != want {
		t.Errorf("partition =\n%s\nwant\n%s", b, want)
	}
	var back []Pool
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, got) {
		t.Errorf("JSON round trip = %+v, %v", back, err)
	}
}

func TestDeterministicAndOrderIndependent(t *testing.T) {
	in := ids(95)
	first, err := Partition("d", in, 0, 7)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		shuffled := slices.Clone(in)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := Partition("d", shuffled, 0, 7)
		if err != nil || !reflect.DeepEqual(got, first) {
			t.Fatalf("partition of a shuffled input differs: %v", err)
		}
	}
	if !slices.Equal(in, ids(95)) {
		t.Error("Partition modified its input")
	}
}

func TestCoversEveryIDOnce(t *testing.T) {
	for _, tc := range []struct{ n, size, pools, last int }{
		{0, 30, 0, 0}, {1, 30, 1, 1}, {30, 0, 1, 30}, {31, 0, 2, 1}, {60, 30, 2, 30}, {95, 30, 4, 5}, {7, 1, 7, 1},
	} {
		got, err := Partition("d", ids(tc.n), tc.size, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.pools {
			t.Fatalf("n=%d size=%d: %d pools, want %d", tc.n, tc.size, len(got), tc.pools)
		}
		size := tc.size
		if size == 0 {
			size = DefaultSize
		}
		var all []string
		for i, p := range got {
			if p.Index != i || p.Dataset != "d" {
				t.Errorf("pool %d: index %d dataset %q", i, p.Index, p.Dataset)
			}
			last := i == len(got)-1
			if want := size; last {
				want = tc.last
				if len(p.ProblemIDs) != want {
					t.Errorf("n=%d: last pool has %d ids, want %d", tc.n, len(p.ProblemIDs), want)
				}
			} else if len(p.ProblemIDs) != want {
				t.Errorf("n=%d: pool %d has %d ids, want %d", tc.n, i, len(p.ProblemIDs), want)
			}
			if p.Short != (len(p.ProblemIDs) < size) {
				t.Errorf("n=%d: pool %d Short=%v with %d ids", tc.n, i, p.Short, len(p.ProblemIDs))
			}
			all = append(all, p.ProblemIDs...)
		}
		slices.Sort(all)
		want := ids(tc.n)
		slices.Sort(want)
		if !slices.Equal(all, want) && tc.n > 0 {
			t.Errorf("n=%d: pools hold %v", tc.n, all)
		}
	}
}

func TestSeedAndDatasetMatter(t *testing.T) {
	base, _ := Partition("d", ids(30), 0, 1)
	other, _ := Partition("d", ids(30), 0, 2)
	renamed, _ := Partition("e", ids(30), 0, 1)
	if slices.Equal(base[0].ProblemIDs, other[0].ProblemIDs) {
		t.Error("seeds 1 and 2 give the same order")
	}
	if slices.Equal(base[0].ProblemIDs, renamed[0].ProblemIDs) {
		t.Error("datasets d and e give the same order")
	}
	if slices.IsSorted(base[0].ProblemIDs) {
		t.Error("order is not shuffled")
	}
}

func TestAppendDoesNotAlias(t *testing.T) {
	got, _ := Partition("d", ids(10), 4, 1)
	got[0].ProblemIDs = append(got[0].ProblemIDs, "x")
	if got[1].ProblemIDs[0] == "x" {
		t.Error("appending to one pool overwrote the next")
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		dataset string
		ids     []string
		size    int
		want    string
	}{
		{"negative size", "d", ids(3), -1, "pools: size must be ≥ 0 (0 means 30), got -1"},
		{"empty dataset", "", ids(3), 0, "pools: dataset must not be empty"},
		{"duplicate", "d", []string{"a", "b", "a"}, 0, `pools: problem id "a" appears more than once`},
		{"empty id", "d", []string{"a", ""}, 0, "pools: a problem id is empty"},
	} {
		if _, err := Partition(tc.dataset, tc.ids, tc.size, 0); err == nil || err.Error() != tc.want {
			t.Errorf("%s: err = %v, want %s", tc.name, err, tc.want)
		}
	}
}

func TestKeyIsUnambiguous(t *testing.T) {
	if string(Key(0, "ab", "c")) == string(Key(0, "a", "bc")) {
		t.Error("length prefixes missing: (ab, c) and (a, bc) share a key")
	}
}
