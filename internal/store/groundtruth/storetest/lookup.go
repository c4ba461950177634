package storetest

import (
	"context"
	"testing"

	"github.com/triage-eval/triage/internal/store/groundtruth"
)

func testHasSolver(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	ctx := context.Background()
	check := func(solver groundtruth.Solver, want bool) {
		t.Helper()
		got, err := s.HasSolver(ctx, solver)
		if err != nil || got != want {
			t.Fatalf("HasSolver(%+v) = %v, %v; want %v, nil", solver, got, err, want)
		}
	}
	a := groundtruth.Solver{Model: "alpha", Mode: groundtruth.ModeStandard}
	check(a, false)
	mustImport(t, s, Slice(sample(a.Model, a.Mode, "ds", "p1")))
	tests := []struct {
		solver groundtruth.Solver
		want   bool
	}{
		{a, true},
		{groundtruth.Solver{Model: "alpha", Mode: groundtruth.ModeExtended}, false},
		{groundtruth.Solver{Model: "alph", Mode: groundtruth.ModeStandard}, false},
		{groundtruth.Solver{Model: "alpha2", Mode: groundtruth.ModeStandard}, false},
		{groundtruth.Solver{Model: "ALPHA", Mode: groundtruth.ModeStandard}, false},
		{groundtruth.Solver{}, false},
	}
	for _, tc := range tests {
		check(tc.solver, tc.want)
	}
	mustImport(t, s, Slice(sample("alpha", groundtruth.ModeExtended, "other", "p9")))
	check(groundtruth.Solver{Model: "alpha", Mode: groundtruth.ModeExtended}, true)
}

func testGetUnknownAndMany(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	ctx := context.Background()
	g := Gen{Models: 2, Datasets: 2, Problems: 1300}
	mustImport(t, s, g.Records())
	solver, dataset := Solver(1, 1), Dataset(1)
	var ids []string
	for p := range 1300 + 400 { // 400 unknown ids
		ids = append(ids, ProblemID(p))
	}
	ids = append(ids, ProblemID(5), "", "nope") // a duplicate and odd ids
	got, err := s.Get(ctx, solver, dataset, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1300 {
		t.Fatalf("Get returned %d records, want 1300", len(got))
	}
	for id, r := range got {
		if r.ProblemID != id || r.Solver != solver || r.Dataset != dataset {
			t.Fatalf("Get: record %+v under id %q", r.Key, id)
		}
	}
	want := collect(g)
	for _, w := range want {
		if w.Solver == solver && w.Dataset == dataset {
			if d := diffRecord(got[w.ProblemID], w); d != "" {
				t.Fatalf("Get(%s): %s", w.ProblemID, d)
			}
		}
	}
	tests := []struct {
		name    string
		solver  groundtruth.Solver
		dataset string
		ids     []string
	}{
		{"no ids", solver, dataset, nil},
		{"unknown ids", solver, dataset, []string{"x", "y"}},
		{"other dataset", solver, "no-such-dataset", []string{ProblemID(1)}},
		{"other mode", groundtruth.Solver{Model: solver.Model, Mode: "nope"}, dataset, []string{ProblemID(1)}},
		{"other model", groundtruth.Solver{Model: "nope", Mode: solver.Mode}, dataset, []string{ProblemID(1)}},
	}
	for _, tc := range tests {
		got, err := s.Get(ctx, tc.solver, tc.dataset, tc.ids)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got == nil || len(got) != 0 {
			t.Fatalf("%s: Get = %v, want an empty, non-nil map", tc.name, got)
		}
	}
}
