package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// withSample returns r as sample j, its cost and correctness varied so
// that samples of one key differ.
func withSample(r groundtruth.Record, j int) groundtruth.Record {
	r.Sample = j
	r.Cost += int64(j)
	r.Correct = r.Gradeable && !r.LuckyGuess && j%2 == 1
	return r
}

// sampleOrder orders stored records by key, then sample.
func sampleOrder(rs []groundtruth.Record) []groundtruth.Record {
	out := sorted(rs)
	slices.SortStableFunc(out, func(a, b groundtruth.Record) int {
		if n := compareKeys(a.Key, b.Key); n != 0 {
			return n
		}
		return a.Sample - b.Sample
	})
	return out
}

// samplesFixture is 3 keys × samples 1..3 (the ground truth spelled 1 for
// the first key, 0 for the others), imported out of order, and a key with
// only sample 4 stored.
func samplesFixture() (in, want []groundtruth.Record) {
	keys := []groundtruth.Record{
		sample("m", groundtruth.ModeStandard, "ds", "p1"),
		sample("m", groundtruth.ModeStandard, "ds", "p2"),
		sample("m", groundtruth.ModeExtended, "ds", "p1"),
	}
	for i, k := range keys {
		gt := k
		if i == 0 {
			gt.Sample = 1
		}
		in = append(in, withSample(k, 3), gt, withSample(k, 2))
		gt.Sample = 0
		want = append(want, Stored(gt), Stored(withSample(k, 2)), Stored(withSample(k, 3)))
	}
	lone := withSample(sample("m", groundtruth.ModeStandard, "ds", "p3"), 4)
	in = append(in, lone)
	want = append(want, Stored(lone))
	return in, sampleOrder(want)
}

func testSamplesRoundTrip(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t, "db")
	in, want := samplesFixture()
	wantStats(t, mustImport(t, s, Slice(in...)), groundtruth.ImportStats{Received: int64(len(in)), Inserted: int64(len(in))})
	var truth []groundtruth.Record
	for _, r := range want {
		if r.Sample == 0 {
			truth = append(truth, r)
		}
	}
	// The ground truth reads as before samples existed.
	wantRecords(t, listAll(t, s, groundtruth.ListQuery{}), truth)
	got, err := s.Get(ctx, truth[1].Solver, "ds", []string{"p1", "p2", "p3"})
	if err != nil || len(got) != 2 || diffRecord(got["p1"], truth[1]) != "" {
		t.Fatalf("Get = %+v, %v; want the ground truth of p1 and p2 only", got, err)
	}
	// Every sample, in order, on pages of every size.
	for _, size := range []int{1, 2, 3, 100} {
		t.Run(fmt.Sprintf("page%d", size), func(t *testing.T) {
			wantRecords(t, listAll(t, s, groundtruth.ListQuery{AllSamples: true, PageSize: size}), want)
		})
	}
	solver := groundtruth.Solver{Model: "m", Mode: groundtruth.ModeStandard}
	wantRecords(t, listAll(t, s, groundtruth.ListQuery{AllSamples: true, Solver: &solver, PageSize: 2}), want[3:])
	all, err := s.GetSamples(ctx, solver, "ds", []string{"p3", "p1", "nope", "p2"})
	if err != nil {
		t.Fatalf("GetSamples: %v", err)
	}
	if len(all) != 3 {
		t.Fatalf("GetSamples returned %d ids, want p1, p2, p3", len(all))
	}
	wantRecords(t, all["p1"], want[3:6])
	wantRecords(t, all["p2"], want[6:9])
	wantRecords(t, all["p3"], want[9:])
	// Re-importing is Unchanged; a changed sample is Updated, the others
	// Unchanged.
	wantStats(t, mustImport(t, s, Slice(in...)), groundtruth.ImportStats{Received: int64(len(in)), Unchanged: int64(len(in))})
	changed := in[0]
	changed.Cost++
	wantStats(t, mustImport(t, s, Slice(changed, in[1])), groundtruth.ImportStats{Received: 2, Updated: 1, Unchanged: 1})
	all, err = s.GetSamples(ctx, changed.Solver, changed.Dataset, []string{changed.ProblemID})
	if err != nil || len(all[changed.ProblemID]) != 3 || all[changed.ProblemID][2].Cost != changed.Cost {
		t.Fatalf("after updating sample 3: %+v, %v", all, err)
	}
}

// testSamplesRepeatedInOneImport: a new sample imported as A, B, B counts
// one Inserted, one Updated, one Unchanged and ends as B, in both tables.
func testSamplesRepeatedInOneImport(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	for _, j := range []int{0, 5} {
		a := withSample(sample("m", groundtruth.ModeStandard, "ds", "p"), j)
		b := a
		b.Cost++
		wantStats(t, mustImport(t, s, Slice(a, b, b)), groundtruth.ImportStats{Received: 3, Inserted: 1, Updated: 1, Unchanged: 1})
		all, err := s.GetSamples(context.Background(), a.Solver, a.Dataset, []string{"p"})
		if err != nil || all["p"][len(all["p"])-1].Cost != b.Cost {
			t.Fatalf("sample %d: %+v, %v; want the last record", j, all["p"], err)
		}
	}
}

// testSamplesManyBatches imports more samples than one batch of either
// backend holds, then again: Inserted, then Unchanged, and every sample
// is listed.
func testSamplesManyBatches(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	g := Gen{Models: 1, Datasets: 2, Problems: 300}
	var in []groundtruth.Record
	for r := range g.each() {
		in = append(in, r, withSample(r, 2), withSample(r, 3))
	}
	n := int64(len(in))
	wantStats(t, mustImport(t, s, Slice(in...)), groundtruth.ImportStats{Received: n, Inserted: n})
	wantStats(t, mustImport(t, s, Slice(in...)), groundtruth.ImportStats{Received: n, Unchanged: n})
	want := make([]groundtruth.Record, len(in))
	for i, r := range in {
		want[i] = Stored(r)
	}
	wantRecords(t, listAll(t, s, groundtruth.ListQuery{AllSamples: true, PageSize: 257}), sampleOrder(want))
	if got := listAll(t, s, groundtruth.ListQuery{}); len(got) != g.Len() {
		t.Fatalf("List lists %d records, want the %d ground truths", len(got), g.Len())
	}
}

// testSamplesRejectBadIndex: a negative or too large sample fails the
// import, naming field "sample", and stores nothing.
func testSamplesRejectBadIndex(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	for _, j := range []int{-1, groundtruth.MaxSample + 1, 1 << 40} {
		good := withSample(sample("m", groundtruth.ModeStandard, "ds", "ok"), 2)
		bad := sample("m", groundtruth.ModeStandard, "ds", "bad")
		bad.Sample = j
		_, err := s.Import(context.Background(), Slice(good, bad))
		var inv *apperr.InvalidArgumentError
		if !errors.As(err, &inv) || inv.Violations[0].Field != "sample" {
			t.Fatalf("sample %d: Import = %v; want an invalid argument naming sample", j, err)
		}
		if got := listAll(t, s, groundtruth.ListQuery{AllSamples: true}); len(got) != 0 {
			t.Fatalf("sample %d: a failed import stored %d records", j, len(got))
		}
	}
}

// testSamplesTokenIsPerMode: a token of a ground-truth listing does not
// continue a listing of every sample, nor the reverse.
func testSamplesTokenIsPerMode(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	in, _ := samplesFixture()
	mustImport(t, s, Slice(in...))
	for _, all := range []bool{false, true} {
		p, err := s.List(context.Background(), groundtruth.ListQuery{PageSize: 1, AllSamples: all})
		if err != nil || p.NextPageToken == "" {
			t.Fatalf("List: %+v, %v", p, err)
		}
		_, err = s.List(context.Background(), groundtruth.ListQuery{PageToken: p.NextPageToken, AllSamples: !all})
		if !errors.Is(err, groundtruth.ErrInvalidPageToken) {
			t.Errorf("token of AllSamples=%v used with %v: %v; want ErrInvalidPageToken", all, !all, err)
		}
	}
}
