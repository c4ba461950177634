package executor_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/services/executor"
)

// TestRunBaselineDrainsOnStop: when Baseline.Stop closes with calls in
// flight, those calls are answered, stored and reported, no other call
// starts, and the stream ends with Baseline.StopError — Canceled by
// default (the caller stopped it), Unavailable from a served Executor
// shutting down — so that the next call resumes with the problems not
// started.
func TestRunBaselineDrainsOnStop(t *testing.T) {
	tests := []struct {
		name    string
		stopErr error
		want    codes.Code
	}{
		{"stopped by its caller", nil, codes.Canceled},
		{"served, shutting down", &apperr.UnavailableError{Reason: "shutting down"}, codes.Unavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { testDrain(t, tt.stopErr, tt.want) })
	}
}

func testDrain(t *testing.T, stopErr error, want codes.Code) {
	const concurrency = 2
	var (
		mu       sync.Mutex
		received int
		release  = make(chan struct{})
		inFlight sync.WaitGroup
	)
	inFlight.Add(concurrency)
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply {
		mu.Lock()
		received++
		first := received <= concurrency
		mu.Unlock()
		if first {
			inFlight.Done()
			<-release
		}
		return llmtest.OpenAI(llmtest.Completion{Content: "Answer: 42", CompletionTokens: 50})
	}))
	stop := make(chan struct{})
	c, st := newBaselineClient(t, srv, grading.New(nil, nil), func(b *executor.Baseline) { b.Stop, b.StopError = stop, stopErr })
	var probs []*triagev1.Problem
	for i := range 10 {
		probs = append(probs, mathProblem(fmt.Sprint("p", i), "42"))
	}
	go func() {
		inFlight.Wait()
		close(stop)
		close(release)
	}()
	_, items, sum, err := collect(t, c, &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: probs, Concurrency: concurrency})
	if status.Code(err) != want || sum != nil {
		t.Fatalf("the drained stream ended with %v (summary %v), want %v and no summary", err, sum, want)
	}
	if len(items) != concurrency || srv.Count() != concurrency {
		t.Errorf("%d items reported, %d calls made; want the %d in flight, and no other", len(items), srv.Count(), concurrency)
	}
	for _, it := range items {
		id := it.GetRecord().GetProblemId()
		got, err := st.Get(context.Background(), groundtruth.Solver{Model: "qwen3-32b", Mode: "extended"}, "aime", []string{id})
		if err != nil || got[id].Cost != 50 {
			t.Errorf("%s, answered while draining, stored as %+v, %v", id, got[id], err)
		}
	}
}
