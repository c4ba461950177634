package storetest

import (
	"context"
	"sync"
	"testing"

	"github.com/triage-eval/triage/internal/store/groundtruth"
)

func testConcurrentImports(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	const importers = 3
	g := Gen{Models: 1, Datasets: 2, Problems: 300}
	stats := make([]groundtruth.ImportStats, importers)
	errs := make([]error, importers)
	var wg sync.WaitGroup
	for i := range importers {
		wg.Go(func() {
			gi := g
			gi.Variant = i
			stats[i], errs[i] = s.Import(context.Background(), gi.Records())
		})
	}
	wg.Wait()
	var inserted int64
	for i, err := range errs {
		if err != nil {
			t.Fatalf("import %d: %v", i, err)
		}
		if st := stats[i]; st.Received != int64(g.Len()) || st.Inserted+st.Updated+st.Unchanged != st.Received {
			t.Fatalf("import %d: stats %+v do not add up", i, st)
		}
		inserted += stats[i].Inserted
	}
	if inserted != int64(g.Len()) {
		t.Fatalf("imports inserted %d records in all, want each of the %d keys inserted once (stats %+v)", inserted, g.Len(), stats)
	}
	// Imports are atomic: the result is one import's records, not a mix.
	got := listAll(t, s, groundtruth.ListQuery{PageSize: groundtruth.MaxPageSize})
	for i := range importers {
		gi := g
		gi.Variant = i
		want := collect(gi)
		if len(got) == len(want) && diffRecord(got[0], want[0]) == "" {
			wantRecords(t, got, want)
			return
		}
	}
	t.Fatalf("stored records match no single import; first is %+v", got[0])
}
