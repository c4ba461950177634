package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// roundTripRecords covers every field: non-UTC and sub-microsecond times,
// sub-microsecond latencies, non-gradeable records, empty and non-ASCII
// text, maximal lengths.
func roundTripRecords() []store.Record {
	tokyo := time.FixedZone("JST", 9*3600)
	a := sample("qwen3-32b", store.ModeStandard, "aime", "2024-I-1")
	b := sample("qwen3-32b", store.ModeExtended, "aime", "2024-I-1")
	b.Cost, b.Correct, b.Latency = 98765, false, 3*time.Second+123456789*time.Nanosecond
	b.MeasuredAt = time.Date(2025, 3, 4, 5, 6, 7, 891234567, tokyo)
	c := sample("qwen3-32b", store.ModeStandard, "gpqa", "rec-ÄÖü-🙂")
	c.Gradeable, c.Correct, c.Cost = false, false, 0
	c.FinishReason, c.ResponseSHA256, c.Error = "", "", "HTTP 500: upstream \"timeout\"\nretry later"
	c.Latency = 0
	c.MeasuredAt = time.Date(1999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	d := sample(strings.Repeat("m", store.MaxModelBytes), store.ModeExtended, strings.Repeat("d", store.MaxDatasetBytes), strings.Repeat("p", store.MaxProblemBytes))
	d.Cost = store.MaxCost
	d.FinishReason, d.Error = strings.Repeat("f", store.MaxTextBytes), strings.Repeat("e", store.MaxTextBytes)
	d.Gradeable, d.Correct = false, false
	d.MeasuredAt = time.Date(2300, 1, 2, 3, 4, 5, 6000, time.UTC)
	e := sample("a", store.ModeStandard, "b", "c")
	e.Cost, e.Latency = 1, time.Nanosecond
	e.MeasuredAt = time.Date(1971, 1, 1, 0, 0, 0, 1500, time.Local)
	return []store.Record{a, b, c, d, e}
}

func testRoundTrip(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	in := roundTripRecords()
	wantStats(t, mustImport(t, s, Slice(in...)), store.ImportStats{Received: int64(len(in)), Inserted: int64(len(in))})
	want := sorted(in)
	wantRecords(t, listAll(t, s, store.ListQuery{}), want)
	for _, r := range want {
		got, err := s.Get(context.Background(), r.Solver, r.Dataset, []string{r.ProblemID})
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		if len(got) != 1 {
			t.Fatalf("Get(%+v) returned %d records, want 1", r.Key, len(got))
		}
		if d := diffRecord(got[r.ProblemID], r); d != "" {
			t.Errorf("Get(%+v): %s", r.Key, d)
		}
	}
}

func testIdempotent(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	g := Gen{Models: 2, Datasets: 3, Problems: 101} // 1212 records: several batches
	n := int64(g.Len())
	wantStats(t, mustImport(t, s, g.Records()), store.ImportStats{Received: n, Inserted: n})
	wantStats(t, mustImport(t, s, g.Records()), store.ImportStats{Received: n, Unchanged: n})
	wantRecords(t, listAll(t, s, store.ListQuery{PageSize: store.MaxPageSize}), collect(g))
	// Another variant changes every record.
	g2 := g
	g2.Variant = 1
	wantStats(t, mustImport(t, s, g2.Records()), store.ImportStats{Received: n, Updated: n})
	wantRecords(t, listAll(t, s, store.ListQuery{PageSize: store.MaxPageSize}), collect(g2))
}

func testUpdateChangedField(t *testing.T, h Harness) {
	changes := []struct {
		field  string
		change func(*store.Record)
	}{
		{"cost", func(r *store.Record) { r.Cost++ }},
		{"correct", func(r *store.Record) { r.Correct = !r.Correct }},
		{"gradeable", func(r *store.Record) { r.Gradeable, r.Correct = false, false }},
		{"finish_reason", func(r *store.Record) { r.FinishReason = "length" }},
		{"latency", func(r *store.Record) { r.Latency += time.Microsecond }},
		{"response_sha256", func(r *store.Record) { r.ResponseSHA256 = "" }},
		{"error", func(r *store.Record) { r.Error = "changed" }},
		{"measured_at", func(r *store.Record) { r.MeasuredAt = r.MeasuredAt.Add(time.Microsecond) }},
	}
	base := []store.Record{
		sample("m", store.ModeStandard, "ds", "p1"),
		sample("m", store.ModeStandard, "ds", "p2"),
		sample("m", store.ModeStandard, "ds", "p3"),
	}
	for _, c := range changes {
		t.Run(c.field, func(t *testing.T) {
			s := h.Open(t, "db")
			mustImport(t, s, Slice(base...))
			next := append([]store.Record(nil), base...)
			c.change(&next[1])
			wantStats(t, mustImport(t, s, Slice(next...)), store.ImportStats{Received: 3, Updated: 1, Unchanged: 2})
			wantRecords(t, listAll(t, s, store.ListQuery{}), sorted(next))
		})
	}
	t.Run("sub-microsecond change is no change", func(t *testing.T) {
		s := h.Open(t, "db")
		mustImport(t, s, Slice(base...))
		next := append([]store.Record(nil), base...)
		next[0].MeasuredAt = next[0].MeasuredAt.Add(999 * time.Nanosecond).In(time.FixedZone("X", 3600))
		next[2].Latency += 999 * time.Nanosecond
		wantStats(t, mustImport(t, s, Slice(next...)), store.ImportStats{Received: 3, Unchanged: 3})
	})
}

func testDuplicateKeys(t *testing.T, h Harness) {
	a := sample("m", store.ModeStandard, "ds", "dup")
	b := a
	b.Cost = 99
	c := a
	c.Error, c.Gradeable, c.Correct = "gone", false, false
	other := sample("m", store.ModeExtended, "ds", "dup")
	// filler puts records of other keys between the duplicates, so that
	// they land in different batches of a batching backend.
	filler := func(n int) []store.Record {
		out := make([]store.Record, n)
		for i := range out {
			out[i] = sample("m", store.ModeStandard, "ds", ProblemID(i))
		}
		return out
	}
	cat := func(parts ...[]store.Record) []store.Record {
		var out []store.Record
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name   string
		stored []store.Record
		in     []store.Record
		want   store.ImportStats
		last   store.Record
	}{
		{"new same twice", nil, []store.Record{a, a}, store.ImportStats{Received: 2, Inserted: 1, Unchanged: 1}, a},
		{"new then changed", nil, []store.Record{a, b}, store.ImportStats{Received: 2, Inserted: 1, Updated: 1}, b},
		{"new changed and back", nil, []store.Record{a, b, a}, store.ImportStats{Received: 3, Inserted: 1, Updated: 2}, a},
		{"stored changed and back", []store.Record{a}, []store.Record{b, a}, store.ImportStats{Received: 2, Updated: 2}, a},
		{"stored same twice", []store.Record{a}, []store.Record{a, a}, store.ImportStats{Received: 2, Unchanged: 2}, a},
		{"stored then changed twice", []store.Record{a}, []store.Record{a, b, c}, store.ImportStats{Received: 3, Unchanged: 1, Updated: 2}, c},
		{"between other solvers", nil, []store.Record{a, other, b, other},
			store.ImportStats{Received: 4, Inserted: 2, Updated: 1, Unchanged: 1}, b},
		{"apart in a long import", nil, cat([]store.Record{a}, filler(700), []store.Record{b}, filler(700), []store.Record{b}),
			store.ImportStats{Received: 1403, Inserted: 701, Updated: 1, Unchanged: 701}, b},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := h.Open(t, "db")
			if tc.stored != nil {
				mustImport(t, s, Slice(tc.stored...))
			}
			wantStats(t, mustImport(t, s, Slice(tc.in...)), tc.want)
			got, err := s.Get(context.Background(), a.Solver, a.Dataset, []string{a.ProblemID})
			if err != nil {
				t.Fatal(err)
			}
			if d := diffRecord(got[a.ProblemID], Stored(tc.last)); d != "" {
				t.Errorf("stored record: %s (want the last one imported)", d)
			}
		})
	}
}
