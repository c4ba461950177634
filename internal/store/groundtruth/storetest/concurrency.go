package storetest

import (
	"context"
	"fmt"
	"iter"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// readerTimeout bounds each read made while an import is held open: a
// backend whose readers wait for the writer fails instead of hanging.
const readerTimeout = 10 * time.Second

func testReadersDuringImport(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	old := Gen{Models: 1, Datasets: 2, Problems: 400} // 1600 records
	mustImport(t, s, old.Records())
	next := old
	next.Variant = 1
	added := sample("late-model", groundtruth.ModeStandard, "ds", "p1")

	// The import yields the updated records, then blocks until released,
	// then adds a record of a new solver.
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	defer unblock() // never leave the import hanging when the test fails
	held := func(yield func(groundtruth.Record, error) bool) {
		for r := range next.each() {
			if !yield(r, nil) {
				return
			}
		}
		close(reached)
		<-release
		yield(added, nil)
	}
	type result struct {
		st  groundtruth.ImportStats
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := s.Import(context.Background(), iter.Seq2[groundtruth.Record, error](held))
		done <- result{st, err}
	}()
	select {
	case <-reached:
	case r := <-done:
		t.Fatalf("Import returned before the iterator finished: %+v, %v", r.st, r.err)
	case <-time.After(time.Minute):
		t.Fatal("import did not reach the hold point")
	}

	checkState(t, s, old, false, "during the import")
	unblock()
	r := <-done
	if r.err != nil {
		t.Fatalf("Import: %v", r.err)
	}
	n := int64(next.Len())
	wantStats(t, r.st, groundtruth.ImportStats{Received: n + 1, Inserted: 1, Updated: n})
	checkState(t, s, next, true, "after the import")
}

// checkState reads s from several goroutines at once and fails t unless each
// read succeeds in time and sees the records of g and, iff late, the late
// solver.
func checkState(t *testing.T, s groundtruth.Store, g Gen, late bool, when string) {
	t.Helper()
	want := collect(g)
	solver := Solver(0, 1)
	var byID = map[string]groundtruth.Record{}
	var ids []string
	for _, r := range want {
		if r.Solver == solver && r.Dataset == Dataset(1) {
			byID[r.ProblemID] = r
			ids = append(ids, r.ProblemID)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := range 4 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), readerTimeout)
			defer cancel()
			errs <- readState(ctx, s, w, solver, ids, byID, want, late)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
	}
}

// readState does one of the reader's checks, chosen by w.
func readState(ctx context.Context, s groundtruth.Store, w int, solver groundtruth.Solver, ids []string,
	byID map[string]groundtruth.Record, want []groundtruth.Record, late bool) error {
	switch w % 3 {
	case 0:
		got, err := s.Get(ctx, solver, Dataset(1), ids)
		if err != nil {
			return fmt.Errorf("s.Get: %w", err)
		}
		if len(got) != len(byID) {
			return fmt.Errorf("s.Get returned %d records, want %d", len(got), len(byID))
		}
		for id, r := range got {
			if d := diffRecord(r, byID[id]); d != "" {
				return fmt.Errorf("Get(%s): %s", id, d)
			}
		}
	case 1:
		q := groundtruth.ListQuery{PageSize: 500, Solver: &want[0].Solver}
		var got []groundtruth.Record
		for {
			p, err := s.List(ctx, q)
			if err != nil {
				return fmt.Errorf("s.List: %w", err)
			}
			got = append(got, p.Records...)
			if p.NextPageToken == "" {
				break
			}
			q.PageToken = p.NextPageToken
		}
		exp := filtered(want, groundtruth.ListQuery{Solver: &want[0].Solver})
		if len(got) != len(exp) {
			return fmt.Errorf("s.List returned %d records, want %d", len(got), len(exp))
		}
		for i := range got {
			if d := diffRecord(got[i], exp[i]); d != "" {
				return fmt.Errorf("record %d of s.List: %s", i, d)
			}
		}
	case 2:
		has, err := s.HasSolver(ctx, groundtruth.Solver{Model: "late-model", Mode: groundtruth.ModeStandard})
		if err != nil {
			return fmt.Errorf("HasSolver: %w", err)
		}
		if has != late {
			return fmt.Errorf("HasSolver(late-model) = %v, want %v", has, late)
		}
	}
	return nil
}
