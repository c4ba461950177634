package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// TestServedExecutorDrainsItsBaselines: a served Executor told to shut
// down (SIGTERM: a rolling update) while a baseline has model calls in
// flight starts no new call, stores the calls in flight, ends the stream
// with Unavailable saying so, and stops within its shutdown grace.
func TestServedExecutorDrainsItsBaselines(t *testing.T) {
	var received atomic.Int32
	model := llmtest.NewServer(t, llmtest.WithLatency(500*time.Millisecond), llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply {
		received.Add(1)
		return llmtest.OpenAI(llmtest.Completion{Content: "Answer: 42", CompletionTokens: 50})
	}))
	dir := t.TempDir()
	endpoints := writeFile(t, "endpoints.json", fmt.Sprintf(`{"q": {"base_url": %q, "model": "m", "mode": "standard", "max_attempts": 1, "timeout": "10s"}}`, model.URL()))
	store := filepath.Join(dir, "gt.db")
	addr, stop := serveInTest(t, map[string]string{"TRIAGE_SHUTDOWN_GRACE": "30s"}, "--services", "executor", "--endpoints", endpoints, "--store", store, "--llm-cache", "off")
	defer stop()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var probs []*triagev1.Problem
	for i := range 10 {
		probs = append(probs, &triagev1.Problem{Id: fmt.Sprint(i), Dataset: "aime", Text: fmt.Sprintf("Compute %d.", i), GradingJson: `{"kind":"math","answer":"42"}`})
	}
	stream, err := triagev1.NewExecutorServiceClient(conn).RunBaseline(context.Background(), &triagev1.RunBaselineRequest{
		Solver: &triagev1.Solver{Model: "m", Mode: triagev1.SolverMode_SOLVER_MODE_STANDARD}, Endpoint: "q", Problems: probs, Concurrency: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute) // only catches a hang
	for received.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the model got %d calls", received.Load())
		}
		time.Sleep(time.Millisecond)
	}
	stop() // SIGTERM; its answers to the stream are sent before it ends
	items := 0
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			t.Fatal("the stream ended without an error: a drained baseline is not complete")
		}
		if err != nil {
			if status.Code(err) != codes.Unavailable || !strings.Contains(err.Error(), "shutting down") {
				t.Errorf("the drained stream ended with %v, want Unavailable saying the executor is shutting down", err)
			}
			break
		}
		if msg.GetItem() != nil {
			items++
		}
	}
	calls := int(received.Load())
	if calls >= len(probs) || items != calls {
		t.Errorf("%d calls made, %d reported; want the calls in flight (fewer than %d), each reported", calls, items, len(probs))
	}
	st, err := groundtruth.Open(context.Background(), store)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var ids []string
	for _, p := range probs {
		ids = append(ids, p.GetId())
	}
	got, err := st.Get(context.Background(), groundtruth.Solver{Model: "m", Mode: "standard"}, "aime", ids)
	if err != nil || len(got) != calls {
		t.Errorf("%d results stored (%v), want the %d calls answered while draining", len(got), err, calls)
	}
}
