package executor_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/services/executor"
)

// newCachedBaselineClient is newBaselineClient with a response cache, so
// that a sample served from another sample's cache entry would show.
func newCachedBaselineClient(t *testing.T, srv *llmtest.Server) (triagev1.ExecutorServiceClient, groundtruth.Store) {
	t.Helper()
	ctx := context.Background()
	st, err := groundtruth.Open(ctx, filepath.Join(t.TempDir(), "gt.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cache, err := llm.OpenCache(ctx, filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cache.Close() })
	now := func() time.Time { return fixedNow }
	b := &executor.Baseline{
		Endpoints: map[string]llm.Endpoint{"q": {Name: "q", BaseURL: srv.URL(), Model: "qwen3-32b", Mode: "extended", MaxAttempts: 1, Timeout: 5 * time.Second}},
		Clients:   llm.NewClients(llm.WithClock(now), llm.WithCache(cache)),
		Solver:    solving.New(grading.New(nil, nil), now),
	}
	svc := server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(st, now, executor.WithBaseline(b))}
	return triagev1.NewExecutorServiceClient(servertest.Start(t, nil, svc)), st
}

// TestRunBaselineSamples: k = 3 makes 3 distinct model calls per problem
// (one at a time, with a cache: a later sample is not the cached answer of
// an earlier one) sending the same request, and stores 3 samples; a second
// run makes none; raising k to 4 makes one more per problem.
func TestRunBaselineSamples(t *testing.T) {
	// Every call answers with a cost of its own, right on even calls.
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(n int, _ llmtest.Recorded) llmtest.Reply {
		content := "Answer: 1"
		if n%2 == 0 {
			content = "Answer: 42"
		}
		return llmtest.OpenAI(llmtest.Completion{Content: content, CompletionTokens: 100 + n})
	}))
	c, st := newCachedBaselineClient(t, srv)
	probs := []*triagev1.Problem{mathProblem("p1", "42"), mathProblem("p2", "42")}
	run := func(k int32) (*triagev1.BaselineStarted, []*triagev1.BaselineItem) {
		t.Helper()
		started, items, sum, err := collect(t, c, &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: probs, Concurrency: 1, Samples: k})
		if err != nil {
			t.Fatalf("samples %d: %v", k, err)
		}
		if int(sum.GetSolved()) != len(items) || sum.GetCached() != 0 {
			t.Fatalf("samples %d: summary %v for %d items; want every item a fresh call", k, sum, len(items))
		}
		return started, items
	}
	tests := []struct {
		k                     int32
		total, skipped, calls int32
		wantSamples           []int32 // of the items, in order
	}{
		{3, 6, 0, 6, []int32{1, 1, 2, 2, 3, 3}},
		{3, 6, 6, 6, nil},
		{4, 8, 6, 8, []int32{4, 4}},
	}
	for _, tc := range tests {
		started, items := run(tc.k)
		if started.GetTotal() != tc.total || started.GetSkipped() != tc.skipped || started.GetPending() != tc.total-tc.skipped {
			t.Errorf("samples %d: started %v; want total %d, skipped %d", tc.k, started, tc.total, tc.skipped)
		}
		var got []int32
		for i, it := range items {
			got = append(got, it.GetSample())
			if want := int32(0); it.GetSample() >= 2 {
				want = it.GetSample()
				if it.GetRecord().GetSample() != want {
					t.Errorf("item %d: record sample %d, want %d", i, it.GetRecord().GetSample(), want)
				}
			} else if it.GetRecord().GetSample() != want {
				t.Errorf("item %d: the ground truth's record has sample %d, want 0", i, it.GetRecord().GetSample())
			}
			if it.GetDone() != int32(i+1) {
				t.Errorf("item %d: done %d", i, it.GetDone())
			}
		}
		if !slices.Equal(got, tc.wantSamples) {
			t.Errorf("samples %d: items of samples %v, want %v", tc.k, got, tc.wantSamples)
		}
		if srv.Count() != int(tc.calls) {
			t.Errorf("samples %d: %d model calls in all, want %d", tc.k, srv.Count(), tc.calls)
		}
	}
	// The sample never reaches the provider: each problem's request is the
	// same body, sent once per sample.
	bodies := map[string]int{}
	for _, r := range srv.Requests() {
		bodies[string(r.Body)]++
	}
	if len(bodies) != 2 {
		t.Errorf("%d distinct request bodies, want one per problem", len(bodies))
	}
	for b, n := range bodies {
		if n != 4 || strings.Contains(b, "sample") {
			t.Errorf("body sent %d times (want 4) or naming the sample: %s", n, b)
		}
	}
	// Four samples stored per problem, each from its own call.
	all, err := st.GetSamples(context.Background(), groundtruth.Solver{Model: "qwen3-32b", Mode: groundtruth.ModeExtended}, "aime", []string{"p1", "p2"})
	if err != nil {
		t.Fatal(err)
	}
	costs := map[int64]bool{}
	for id, rs := range all {
		var idx []int
		for _, r := range rs {
			idx = append(idx, r.SampleIndex())
			costs[r.Cost] = true
		}
		if !slices.Equal(idx, []int{1, 2, 3, 4}) {
			t.Errorf("%s: stored samples %v, want 1..4", id, idx)
		}
	}
	if len(all) != 2 || len(costs) != 8 {
		t.Errorf("stored %d problems with %d distinct costs; want 2 and 8 (one per call)", len(all), len(costs))
	}
	// ListGroundTruth: the ground truth alone, or every sample on request.
	for _, tc := range []struct {
		all  bool
		want string
	}{{false, "p1/0 p2/0"}, {true, "p1/0 p1/2 p1/3 p1/4 p2/0 p2/2 p2/3 p2/4"}} {
		var got []string
		req := &triagev1.ListGroundTruthRequest{PageSize: 3, AllSamples: tc.all}
		for {
			resp, err := c.ListGroundTruth(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range resp.GetRecords() {
				got = append(got, fmt.Sprintf("%s/%d", r.GetProblemId(), r.GetSample()))
			}
			if req.PageToken = resp.GetNextPageToken(); req.PageToken == "" {
				break
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("all_samples=%v lists %v, want %s", tc.all, got, tc.want)
		}
	}
}

// TestImportSamples: samples round-trip through ImportGroundTruth; a
// negative or too large sample is an InvalidArgument naming the record's
// sample field, and stores nothing.
func TestImportSamples(t *testing.T) {
	c, st := newClient(t, true)
	for _, bad := range []int32{-1, groundtruth.MaxSample + 1, 1 << 30} {
		r := record("mmlu", "q1", 10, true, true)
		r.Sample = bad
		_, err := importRecords(t, c, 10, record("mmlu", "q0", 10, true, true), r)
		fvs := grpcerr.FieldViolations(err)
		if status.Code(err) != codes.InvalidArgument || len(fvs) != 1 || fvs[0].GetField() != "records[1].sample" {
			t.Errorf("sample %d: %v; want InvalidArgument on records[1].sample", bad, err)
		}
	}
	gt, s2 := record("mmlu", "q1", 10, true, true), record("mmlu", "q1", 12, false, true)
	gt.Sample, s2.Sample = 1, 2
	resp, err := importRecords(t, c, 10, gt, s2)
	if err != nil || resp.GetInserted() != 2 {
		t.Fatalf("import = %v, %v", resp, err)
	}
	all, err := st.GetSamples(context.Background(), groundtruth.Solver{Model: "qwen3-32b", Mode: groundtruth.ModeExtended}, "mmlu", []string{"q1"})
	if rs := all["q1"]; err != nil || len(rs) != 2 || rs[0].Sample != 0 || rs[0].Cost != 10 || rs[1].Sample != 2 || rs[1].Cost != 12 {
		t.Errorf("stored %+v, %v; want the ground truth then sample 2", all, err)
	}
}
