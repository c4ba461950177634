package storetest

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// Stored returns r as a store gives it back: MeasuredAt in UTC truncated to
// the microsecond, Latency truncated to the microsecond.
func Stored(r groundtruth.Record) groundtruth.Record {
	r.MeasuredAt = r.MeasuredAt.UTC().Truncate(time.Microsecond)
	r.Latency = r.Latency.Truncate(time.Microsecond)
	return r
}

// Slice yields rs in order (for small, test-sized imports).
func Slice(rs ...groundtruth.Record) iter.Seq2[groundtruth.Record, error] {
	return func(yield func(groundtruth.Record, error) bool) {
		for _, r := range rs {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// mustImport imports records, fails t on error and checks that the counts
// add up to Received.
func mustImport(t *testing.T, s groundtruth.Store, records iter.Seq2[groundtruth.Record, error]) groundtruth.ImportStats {
	t.Helper()
	st, err := s.Import(context.Background(), records)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	if st.Inserted+st.Updated+st.Unchanged != st.Received {
		t.Fatalf("Import stats %+v: Inserted+Updated+Unchanged != Received", st)
	}
	return st
}

// wantStats fails t unless got equals want.
func wantStats(t *testing.T, got, want groundtruth.ImportStats) {
	t.Helper()
	if got != want {
		t.Fatalf("ImportStats = %+v, want %+v", got, want)
	}
}

// listAll walks every page of q (from its token) and returns the records.
func listAll(t *testing.T, s groundtruth.Store, q groundtruth.ListQuery) []groundtruth.Record {
	t.Helper()
	var out []groundtruth.Record
	for pages := 0; ; pages++ {
		if pages > 100_000 {
			t.Fatal("List does not terminate")
		}
		p, err := s.List(context.Background(), q)
		if err != nil {
			t.Fatalf("List(%+v): %v", q, err)
		}
		out = append(out, p.Records...)
		if p.NextPageToken == "" {
			return out
		}
		q.PageToken = p.NextPageToken
	}
}

// sorted returns rs (stored form) in key order.
func sorted(rs []groundtruth.Record) []groundtruth.Record {
	out := make([]groundtruth.Record, len(rs))
	for i, r := range rs {
		out[i] = Stored(r)
	}
	slices.SortFunc(out, func(a, b groundtruth.Record) int { return compareKeys(a.Key, b.Key) })
	return out
}

// compareKeys orders keys by model, mode, dataset, problem id (bytewise).
func compareKeys(a, b groundtruth.Key) int {
	for _, c := range [][2]string{
		{a.Solver.Model, b.Solver.Model}, {a.Solver.Mode, b.Solver.Mode},
		{a.Dataset, b.Dataset}, {a.ProblemID, b.ProblemID},
	} {
		if n := strings.Compare(c[0], c[1]); n != 0 {
			return n
		}
	}
	return 0
}

// diffRecord describes how got differs from want, or "" if they are equal,
// times compared with Equal and required to be in UTC.
func diffRecord(got, want groundtruth.Record) string {
	var d []string
	if got.Key != want.Key {
		d = append(d, fmt.Sprintf("key %+v, want %+v", got.Key, want.Key))
	}
	if !got.MeasuredAt.Equal(want.MeasuredAt) {
		d = append(d, fmt.Sprintf("MeasuredAt %v, want %v", got.MeasuredAt, want.MeasuredAt))
	}
	if got.MeasuredAt.Location() != time.UTC {
		d = append(d, fmt.Sprintf("MeasuredAt location %v, want UTC", got.MeasuredAt.Location()))
	}
	g, w := got, want
	g.MeasuredAt, w.MeasuredAt = time.Time{}, time.Time{}
	if g != w {
		d = append(d, fmt.Sprintf("values %+v, want %+v", g, w))
	}
	return strings.Join(d, "; ")
}

// wantRecords fails t unless got equals want (both in key order).
func wantRecords(t *testing.T, got, want []groundtruth.Record) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d", len(got), len(want))
	}
	for i := range got {
		if d := diffRecord(got[i], want[i]); d != "" {
			t.Fatalf("record %d: %s", i, d)
		}
	}
}

// collect returns the records of g in key order, in stored form.
func collect(g Gen) []groundtruth.Record {
	return sorted(slices.Collect(g.each()))
}

// sample returns a fully populated, valid record of key (solver, dataset, id).
func sample(model, mode, dataset, id string) groundtruth.Record {
	return groundtruth.Record{
		Key:            groundtruth.Key{Solver: groundtruth.Solver{Model: model, Mode: mode}, Dataset: dataset, ProblemID: id},
		Cost:           1234,
		CostRule:       costrule.Completion,
		Correct:        true,
		Gradeable:      true,
		FinishReason:   "stop",
		Latency:        1500 * time.Millisecond,
		ResponseSHA256: strings.Repeat("ab", 32),
		MeasuredAt:     Epoch,
	}
}
