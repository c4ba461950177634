package injection

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func ids(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%02d", prefix, i)
	}
	return out
}

// twinsOf gives every base id a twin in the source, plus some unrelated
// source items.
func twinsOf(base []string, extra int) []string {
	var out []string
	for _, id := range base {
		out = append(out, id+DefaultTwinSuffix)
	}
	return append(out, ids("other-", extra)...)
}

func TestComposeKeepsSizeAndInjectsK(t *testing.T) {
	base := ids("q", 30)
	source := twinsOf(base, 5)
	var previous []int
	for _, r := range DefaultRatios {
		c, err := Compose(Spec{Seed: 7, Dataset: "mmlu-math", Pool: 3, IDs: base, Source: source, Ratio: r})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.IDs) != 30 || len(c.Injected) != 30 {
			t.Fatalf("r = %v: %d ids, want 30", r, len(c.IDs))
		}
		var injected []int
		inPool := map[string]bool{}
		for i, id := range c.IDs {
			if inPool[id] {
				t.Errorf("r = %v: %s appears twice", r, id)
			}
			inPool[id] = true
			if c.Injected[i] {
				injected = append(injected, i)
				if !strings.HasSuffix(id, DefaultTwinSuffix) && !strings.HasPrefix(id, "other-") {
					t.Errorf("r = %v: position %d is marked injected but holds %s", r, i, id)
				}
			} else if id != base[i] {
				t.Errorf("r = %v: position %d holds %s, want the base problem %s", r, i, id, base[i])
			}
		}
		if len(injected) != K(r, 30) {
			t.Errorf("r = %v: %d injected, want %d", r, len(injected), K(r, 30))
		}
		for _, id := range c.IDs {
			if inPool[id] && inPool[id+DefaultTwinSuffix] {
				t.Errorf("r = %v: %s and its twin share the pool", r, id)
			}
		}
		// Nested: the positions substituted at a smaller ratio are
		// substituted at every larger one.
		for _, p := range previous {
			if !slices.Contains(injected, p) {
				t.Errorf("r = %v: position %d, substituted at a smaller ratio, is not", r, p)
			}
		}
		previous = injected
	}
}

func TestComposeIsDeterministicAndSeeded(t *testing.T) {
	base, source := ids("q", 12), twinsOf(ids("q", 12), 20)
	spec := Spec{Seed: 1, Dataset: "gpqa", Pool: 0, IDs: base, Source: source, Ratio: 0.5}
	a, _ := Compose(spec)
	reversed := slices.Clone(source)
	slices.Reverse(reversed)
	spec.Source = reversed
	b, _ := Compose(spec)
	if !slices.Equal(a.IDs, b.IDs) {
		t.Error("the composition depends on the order of the source ids")
	}
	for _, change := range []func(*Spec){
		func(s *Spec) { s.Seed = 2 },
		func(s *Spec) { s.Pool = 1 },
		func(s *Spec) { s.Dataset = "gpqa2" },
	} {
		s := spec
		change(&s)
		c, _ := Compose(s)
		if slices.Equal(a.IDs, c.IDs) {
			t.Errorf("changing %+v did not change the composition", s)
		}
	}
}

func TestComposeEnds(t *testing.T) {
	base := ids("q", 10)
	c, err := Compose(Spec{Dataset: "d", IDs: base, Source: ids("u", 3), Ratio: 0})
	if err != nil || !slices.Equal(c.IDs, base) || slices.Contains(c.Injected, true) {
		t.Errorf("r = 0: %v, %v; want the base pool", c, err)
	}
	// At r = 1 nothing stays, so twins are allowed.
	c, err = Compose(Spec{Dataset: "d", IDs: base, Source: twinsOf(base, 0), Ratio: 1})
	if err != nil || slices.Contains(c.Injected, false) {
		t.Errorf("r = 1: %v, %v; want every position injected", c, err)
	}
}

func TestComposeErrors(t *testing.T) {
	base := ids("q", 10)
	for _, tc := range []struct {
		name string
		spec Spec
		want string
	}{
		{"ratio above 1", Spec{IDs: base, Ratio: 1.5}, "ratio must be in [0, 1]"},
		{"negative ratio", Spec{IDs: base, Ratio: -0.1}, "ratio must be in [0, 1]"},
		{"repeated pool id", Spec{IDs: []string{"a", "a"}, Ratio: 0}, `pool id "a" repeats`},
		{"repeated source id", Spec{IDs: base, Source: []string{"u", "u"}}, `source id "u" repeats`},
		// Only the twins are available, and at r = 0.5 half the pool stays:
		// 5 positions to fill, 5 usable twins of the substituted problems.
		{"too few usable", Spec{Dataset: "d", IDs: base, Source: twinsOf(base[:4], 0), Ratio: 0.5}, "needs 5 unsolvable items at r = 0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Compose(tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// TestK: k = round(r·n) with halves away from zero (SPEC §5), on the
// decimal r the config wrote: 0.29·50 is 14.5 (15), though float64 makes it
// 14.4999…; likewise 0.145·100 and 0.285·100.
func TestK(t *testing.T) {
	for _, tc := range []struct {
		r    float64
		n, k int
	}{
		{0, 30, 0}, {0.25, 30, 8}, {0.5, 30, 15}, {0.75, 30, 23}, {1, 30, 30}, {0.25, 2, 1}, {0.25, 1, 0},
		{0.5, 1, 1}, {0.5, 3, 2}, {0.1, 5, 1}, {0.1, 4, 0}, {0.29, 50, 15}, {0.145, 100, 15}, {0.285, 100, 29},
		{0.036, 375, 14}, {1.0 / 3, 3, 1}, {0.75, 0, 0}, {-0.5, 3, -2},
	} {
		if got := K(tc.r, tc.n); got != tc.k {
			t.Errorf("K(%v, %d) = %d, want %d", tc.r, tc.n, got, tc.k)
		}
	}
}
