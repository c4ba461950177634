package storetest

import (
	"context"
	"testing"

	"github.com/triage-eval/triage/internal/store/groundtruth"
)

func testReopen(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	g := Gen{Models: 2, Datasets: 2, Problems: 60}
	mustImport(t, s, g.Records())
	extra := roundTripRecords()
	mustImport(t, s, Slice(extra...))
	want := sorted(append(collect(g), extra...))
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for range 2 {
		s = h.Open(t, "db")
		wantRecords(t, listAll(t, s, groundtruth.ListQuery{PageSize: 77}), want)
		wantStats(t, mustImport(t, s, g.Records()), groundtruth.ImportStats{Received: int64(g.Len()), Unchanged: int64(g.Len())})
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	// Another name is another, empty database.
	other := h.Open(t, "other")
	if p, err := other.List(context.Background(), groundtruth.ListQuery{}); err != nil || len(p.Records) != 0 {
		t.Fatalf("List on a fresh database = %d records, %v; want 0, nil", len(p.Records), err)
	}
}

func testMigrations(t *testing.T, h Harness) {
	latest, err := groundtruth.LatestSchemaVersion(h.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	if latest < 1 {
		t.Fatalf("LatestSchemaVersion(%q) = %d, want ≥ 1", h.Dialect, latest)
	}
	applied := func() []groundtruth.AppliedMigration {
		t.Helper()
		s := h.Open(t, "db") // closed when t ends if a check fails first
		ml, ok := s.(groundtruth.MigrationLister)
		if !ok {
			t.Fatalf("%T does not implement groundtruth.MigrationLister", s)
		}
		ms, err := ml.AppliedMigrations(context.Background())
		if err != nil {
			t.Fatalf("AppliedMigrations: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		return ms
	}
	first := applied()
	if int64(len(first)) != latest {
		t.Fatalf("applied %d migrations, want %d", len(first), latest)
	}
	for i, m := range first {
		if m.Version != int64(i+1) || m.AppliedAt.IsZero() {
			t.Fatalf("migration %d = %+v, want version %d with a time", i, m, i+1)
		}
	}
	for range 2 {
		again := applied()
		if len(again) != len(first) {
			t.Fatalf("after reopening: %d migrations, want %d", len(again), len(first))
		}
		for i := range again {
			if again[i].Version != first[i].Version || !again[i].AppliedAt.Equal(first[i].AppliedAt) {
				t.Fatalf("after reopening, migration %d = %+v, want %+v (applied once)", i, again[i], first[i])
			}
		}
	}
}
