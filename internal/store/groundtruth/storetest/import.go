package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// roundTripRecords covers every field: non-UTC and sub-microsecond times,
// sub-microsecond latencies, non-gradeable records, empty and non-ASCII
// text, maximal lengths.
func roundTripRecords() []groundtruth.Record {
	tokyo := time.FixedZone("JST", 9*3600)
	a := sample("qwen3-32b", groundtruth.ModeStandard, "aime", "2024-I-1")
	b := sample("qwen3-32b", groundtruth.ModeExtended, "aime", "2024-I-1")
	b.Cost, b.CostRule, b.Correct, b.Latency = 98765, costrule.CompletionPlusReasoning, false, 3*time.Second+123456789*time.Nanosecond
	b.MeasuredAt = time.Date(2025, 3, 4, 5, 6, 7, 891234567, tokyo)
	b.ProblemSHA256 = strings.Repeat("0123456789abcdef", 4)
	c := sample("qwen3-32b", groundtruth.ModeStandard, "gpqa", "rec-ÄÖü-🙂")
	c.Gradeable, c.Correct, c.Cost, c.CostRule = false, false, 0, costrule.None
	c.FinishReason, c.ResponseSHA256, c.Error = "", "", "HTTP 500: upstream \"timeout\"\nretry later"
	c.Latency = 0
	c.MeasuredAt = time.Date(1999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	d := sample(strings.Repeat("m", groundtruth.MaxModelBytes), groundtruth.ModeExtended, strings.Repeat("d", groundtruth.MaxDatasetBytes), strings.Repeat("p", groundtruth.MaxProblemBytes))
	d.Cost, d.CostRule = groundtruth.MaxCost, costrule.TotalMinusPrompt
	d.FinishReason, d.Error = strings.Repeat("f", groundtruth.MaxTextBytes), strings.Repeat("e", groundtruth.MaxTextBytes)
	d.Gradeable, d.Correct = false, false
	d.MeasuredAt = time.Date(2300, 1, 2, 3, 4, 5, 6000, time.UTC)
	e := sample("a", groundtruth.ModeStandard, "b", "c")
	e.Cost, e.CostRule, e.Latency = 1, costrule.Unknown, time.Nanosecond
	e.MeasuredAt = time.Date(1971, 1, 1, 0, 0, 0, 1500, time.Local)
	return []groundtruth.Record{a, b, c, d, e}
}

func testRoundTrip(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	in := roundTripRecords()
	wantStats(t, mustImport(t, s, Slice(in...)), groundtruth.ImportStats{Received: int64(len(in)), Inserted: int64(len(in))})
	want := sorted(in)
	wantRecords(t, listAll(t, s, groundtruth.ListQuery{}), want)
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
	wantStats(t, mustImport(t, s, g.Records()), groundtruth.ImportStats{Received: n, Inserted: n})
	wantStats(t, mustImport(t, s, g.Records()), groundtruth.ImportStats{Received: n, Unchanged: n})
	wantRecords(t, listAll(t, s, groundtruth.ListQuery{PageSize: groundtruth.MaxPageSize}), collect(g))
	// Another variant changes every record.
	g2 := g
	g2.Variant = 1
	wantStats(t, mustImport(t, s, g2.Records()), groundtruth.ImportStats{Received: n, Updated: n})
	wantRecords(t, listAll(t, s, groundtruth.ListQuery{PageSize: groundtruth.MaxPageSize}), collect(g2))
}

func testUpdateChangedField(t *testing.T, h Harness) {
	changes := []struct {
		field  string
		change func(*groundtruth.Record)
	}{
		{"cost", func(r *groundtruth.Record) { r.Cost++ }},
		{"cost_rule", func(r *groundtruth.Record) { r.CostRule = costrule.TotalMinusPrompt }},
		{"correct", func(r *groundtruth.Record) { r.Correct = !r.Correct }},
		{"gradeable", func(r *groundtruth.Record) { r.Gradeable, r.Correct = false, false }},
		{"finish_reason", func(r *groundtruth.Record) { r.FinishReason = "length" }},
		{"latency", func(r *groundtruth.Record) { r.Latency += time.Microsecond }},
		{"response_sha256", func(r *groundtruth.Record) { r.ResponseSHA256 = "" }},
		{"problem_sha256", func(r *groundtruth.Record) { r.ProblemSHA256 = strings.Repeat("cd", 32) }},
		{"error", func(r *groundtruth.Record) { r.Error = "changed" }},
		{"measured_at", func(r *groundtruth.Record) { r.MeasuredAt = r.MeasuredAt.Add(time.Microsecond) }},
		{"lucky_guess", func(r *groundtruth.Record) { r.Correct, r.LuckyGuess = false, true }},
	}
	base := []groundtruth.Record{
		sample("m", groundtruth.ModeStandard, "ds", "p1"),
		sample("m", groundtruth.ModeStandard, "ds", "p2"),
		sample("m", groundtruth.ModeStandard, "ds", "p3"),
	}
	for _, c := range changes {
		t.Run(c.field, func(t *testing.T) {
			s := h.Open(t, "db")
			mustImport(t, s, Slice(base...))
			next := append([]groundtruth.Record(nil), base...)
			c.change(&next[1])
			wantStats(t, mustImport(t, s, Slice(next...)), groundtruth.ImportStats{Received: 3, Updated: 1, Unchanged: 2})
			wantRecords(t, listAll(t, s, groundtruth.ListQuery{}), sorted(next))
		})
	}
	t.Run("sub-microsecond change is no change", func(t *testing.T) {
		s := h.Open(t, "db")
		mustImport(t, s, Slice(base...))
		next := append([]groundtruth.Record(nil), base...)
		next[0].MeasuredAt = next[0].MeasuredAt.Add(999 * time.Nanosecond).In(time.FixedZone("X", 3600))
		next[2].Latency += 999 * time.Nanosecond
		wantStats(t, mustImport(t, s, Slice(next...)), groundtruth.ImportStats{Received: 3, Unchanged: 3})
	})
}

func testDuplicateKeys(t *testing.T, h Harness) {
	a := sample("m", groundtruth.ModeStandard, "ds", "dup")
	b := a
	b.Cost = 99
	c := a
	c.Error, c.Gradeable, c.Correct = "gone", false, false
	other := sample("m", groundtruth.ModeExtended, "ds", "dup")
	// filler puts records of other keys between the duplicates, so that
	// they land in different batches of a batching backend.
	filler := func(n int) []groundtruth.Record {
		out := make([]groundtruth.Record, n)
		for i := range out {
			out[i] = sample("m", groundtruth.ModeStandard, "ds", ProblemID(i))
		}
		return out
	}
	cat := func(parts ...[]groundtruth.Record) []groundtruth.Record {
		var out []groundtruth.Record
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name   string
		stored []groundtruth.Record
		in     []groundtruth.Record
		want   groundtruth.ImportStats
		last   groundtruth.Record
	}{
		{"new same twice", nil, []groundtruth.Record{a, a}, groundtruth.ImportStats{Received: 2, Inserted: 1, Unchanged: 1}, a},
		{"new then changed", nil, []groundtruth.Record{a, b}, groundtruth.ImportStats{Received: 2, Inserted: 1, Updated: 1}, b},
		{"new changed and back", nil, []groundtruth.Record{a, b, a}, groundtruth.ImportStats{Received: 3, Inserted: 1, Updated: 2}, a},
		{"stored changed and back", []groundtruth.Record{a}, []groundtruth.Record{b, a}, groundtruth.ImportStats{Received: 2, Updated: 2}, a},
		{"stored same twice", []groundtruth.Record{a}, []groundtruth.Record{a, a}, groundtruth.ImportStats{Received: 2, Unchanged: 2}, a},
		{"stored then changed twice", []groundtruth.Record{a}, []groundtruth.Record{a, b, c}, groundtruth.ImportStats{Received: 3, Unchanged: 1, Updated: 2}, c},
		{"between other solvers", nil, []groundtruth.Record{a, other, b, other},
			groundtruth.ImportStats{Received: 4, Inserted: 2, Updated: 1, Unchanged: 1}, b},
		{"apart in a long import", nil, cat([]groundtruth.Record{a}, filler(700), []groundtruth.Record{b}, filler(700), []groundtruth.Record{b}),
			groundtruth.ImportStats{Received: 1403, Inserted: 701, Updated: 1, Unchanged: 701}, b},
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
