package storetest

import (
	"context"
	"testing"

	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// oddStrings cannot be stored by every backend (PostgreSQL text holds
// neither NUL bytes nor invalid UTF-8), but every backend must answer reads
// that name them: nothing matches.
var oddStrings = []string{"a\x00b", "\xff\xfe", "p1\x00"}

func testReadOddStrings(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	ctx := context.Background()
	r := sample("m", groundtruth.ModeStandard, "ds", "p1")
	mustImport(t, s, Slice(r))
	for _, odd := range oddStrings {
		got, err := s.Get(ctx, r.Solver, r.Dataset, []string{odd, r.ProblemID})
		if err != nil || len(got) != 1 {
			t.Fatalf("Get(ids %q, p1) = %d records, %v; want 1, nil", odd, len(got), err)
		}
		if got, err := s.Get(ctx, groundtruth.Solver{Model: odd, Mode: r.Solver.Mode}, r.Dataset, []string{r.ProblemID}); err != nil || len(got) != 0 {
			t.Fatalf("Get(model %q) = %d records, %v; want 0, nil", odd, len(got), err)
		}
		if got, err := s.Get(ctx, r.Solver, odd, []string{r.ProblemID}); err != nil || len(got) != 0 {
			t.Fatalf("Get(dataset %q) = %d records, %v; want 0, nil", odd, len(got), err)
		}
		if has, err := s.HasSolver(ctx, groundtruth.Solver{Model: odd, Mode: groundtruth.ModeStandard}); err != nil || has {
			t.Fatalf("HasSolver(%q) = %v, %v; want false, nil", odd, has, err)
		}
		for _, q := range []groundtruth.ListQuery{{Dataset: odd}, {Solver: &groundtruth.Solver{Model: odd, Mode: odd}}} {
			if p, err := s.List(ctx, q); err != nil || len(p.Records) != 0 || p.NextPageToken != "" {
				t.Fatalf("List(%+v) = %d records, token %q, %v; want an empty last page", q, len(p.Records), p.NextPageToken, err)
			}
		}
	}
}
