package storetest

import (
	"context"
	"iter"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// testOpenDuringImport opens the database again, as `triage ground-truth
// list` does, while another store holds an import open: opening an up-to-date
// database and reading it must not wait for the importer's write lock.
func testOpenDuringImport(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	old := Gen{Models: 1, Datasets: 2, Problems: 100}
	mustImport(t, s, old.Records())
	next := old
	next.Variant = 1

	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	defer unblock()
	held := func(yield func(groundtruth.Record, error) bool) {
		for r := range next.each() {
			if !yield(r, nil) {
				return
			}
		}
		close(reached)
		<-release
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Import(context.Background(), iter.Seq2[groundtruth.Record, error](held))
		done <- err
	}()
	select {
	case <-reached:
	case err := <-done:
		t.Fatalf("Import returned before the iterator finished: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("import did not reach the hold point")
	}

	start := time.Now()
	reader := h.Open(t, "db")
	ctx, cancel := context.WithTimeout(context.Background(), readerTimeout)
	defer cancel()
	page, err := reader.List(ctx, groundtruth.ListQuery{PageSize: groundtruth.MaxPageSize})
	if err != nil {
		t.Fatalf("List through a store opened during the import: %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("opening and listing during the import took %v: it waited for the writer", took)
	}
	if got, want := len(page.Records), old.Len(); got != want {
		t.Errorf("listed %d records, want the %d committed before the import", got, want)
	}
	if err := reader.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	unblock()
	if err := <-done; err != nil {
		t.Fatalf("Import: %v", err)
	}
}
