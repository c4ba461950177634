package executor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/services/executor"
)

// batchClock is a clock that sleeping advances, shared by the gateway's
// polls and the fake provider's batches.
type batchClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *batchClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *batchClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
	return ctx.Err()
}

// boxedAnswer answers "Compute problem pN." with \boxed{N*7}, and the
// problem "p4" wrong; a deterministic provider.
func boxedAnswer(_ int, r llmtest.Recorded) llmtest.Reply {
	var req struct {
		Messages []llm.Message `json:"messages"`
	}
	_ = json.Unmarshal(r.Body, &req)
	text := req.Messages[0].Content
	i := strings.Index(text, "Compute problem p")
	id := text[i+len("Compute problem p") : i+len("Compute problem p")+1]
	return llmtest.VLLM(llmtest.Completion{Content: `\boxed{` + id + `7}`, Reasoning: "thinking about " + id, PromptTokens: 40, CompletionTokens: 120 + len(id)})
}

// newBatchExecutor serves an Executor with a response cache whose
// endpoint "q" may batch, on a fresh fake provider.
func newBatchExecutor(t *testing.T, batch bool, cache llm.Cache) (triagev1.ExecutorServiceClient, groundtruth.Store, *llmtest.Server) {
	t.Helper()
	c, st, srv, _ := newBatchExecutorBaseline(t, batch, cache)
	return c, st, srv
}

// newBatchExecutorBaseline is newBatchExecutor, with the Executor's
// baseline (its endpoints and gateway clients).
func newBatchExecutorBaseline(t *testing.T, batch bool, cache llm.Cache) (triagev1.ExecutorServiceClient, groundtruth.Store, *llmtest.Server, *executor.Baseline) {
	t.Helper()
	clock := &batchClock{t: fixedNow}
	srv := llmtest.NewServer(t, llmtest.WithHandler(boxedAnswer), llmtest.WithClock(clock.now))
	st, err := groundtruth.Open(context.Background(), filepath.Join(t.TempDir(), "gt.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts := []llm.Option{llm.WithClock(clock.now), llm.WithSleep(clock.sleep)}
	if cache != nil {
		opts = append(opts, llm.WithCache(cache))
	}
	b := &executor.Baseline{
		Endpoints: map[string]llm.Endpoint{"q": {Name: "q", BaseURL: srv.URL(), Model: "qwen3-32b", Mode: "extended", Family: llm.FamilyQwen, MaxAttempts: 1, Timeout: 5 * time.Second, Batch: batch}},
		Clients:   llm.NewClients(opts...),
		Solver:    solving.New(grading.New(nil, nil), clock.now),
	}
	svc := server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(st, clock.now, executor.WithBaseline(b))}
	return triagev1.NewExecutorServiceClient(servertest.Start(t, nil, svc)), st, srv, b
}

// TestBatchBaselineBillsAnswersLeftUnreported: a process that read its
// batches into the cache and died before reporting any answer left them
// unbilled; the next baseline reports each with its batch (batch_id, the
// provider's usage: billed at the batch price) and counts them in
// BaselineBatch.unreported, and a later rerun, which finds them reported,
// bills none again.
func TestBatchBaselineBillsAnswersLeftUnreported(t *testing.T) {
	ctx := context.Background()
	probs := []*triagev1.Problem{mathProblem("p1", "17"), mathProblem("p2", "27"), mathProblem("p3", "37")}
	c, _, srv, b := newBatchExecutorBaseline(t, true, openCache(t))
	client, err := b.Clients.Get("baseline/q", b.Endpoints["q"])
	if err != nil {
		t.Fatal(err)
	}
	var reqs []llm.Request
	for _, p := range probs {
		req, err := solving.Request(problems.Problem{ID: p.GetId(), Dataset: p.GetDataset(), Text: p.GetText(), Grading: json.RawMessage(p.GetGradingJson())}, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, req)
	}
	// The earlier process: its batch read into the cache, then it died.
	if rep, err := client.Prefill(ctx, reqs, llm.BatchOptions{}); err != nil || rep.Stored != len(probs) {
		t.Fatalf("the earlier process's batch: %+v, %v", rep, err)
	}
	run := func(rerun bool) (*triagev1.BaselineBatch, []*triagev1.BaselineItem) {
		t.Helper()
		stream, err := c.RunBaseline(ctx, &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: probs, Batch: true, Rerun: rerun})
		if err != nil {
			t.Fatal(err)
		}
		var rep *triagev1.BaselineBatch
		var items []*triagev1.BaselineItem
		for {
			msg, err := stream.Recv()
			if err != nil {
				t.Fatal(err)
			}
			if b := msg.GetBatch(); b != nil {
				rep = b
			}
			if it := msg.GetItem(); it != nil {
				items = append(items, it)
			}
			if msg.GetSummary() != nil {
				return rep, items
			}
		}
	}
	rep, items := run(false)
	if rep.GetUnreported() != int32(len(probs)) || rep.GetCached() != int32(len(probs)) || rep.GetSubmitted() != 0 {
		t.Errorf("batch report %v; want every answer cached and unreported", rep)
	}
	for _, it := range items {
		if it.GetBatchId() == "" || it.GetPromptTokens() != 40 || it.GetOutputTokens() == 0 || !it.GetCached() {
			t.Errorf("%s: %v; want it billed with its batch", it.GetRecord().GetProblemId(), it)
		}
	}
	rep, items = run(true)
	if rep.GetUnreported() != 0 || len(items) != len(probs) {
		t.Errorf("rerun: batch report %v, %d items", rep, len(items))
	}
	for _, it := range items {
		if it.GetBatchId() != "" || it.GetPromptTokens() != 0 {
			t.Errorf("rerun, %s: %v; want a cached answer billed nothing", it.GetRecord().GetProblemId(), it)
		}
	}
	if srv.Count() != 0 {
		t.Errorf("%d synchronous calls, want none", srv.Count())
	}
}

func openCache(t *testing.T) *llm.SQLCache {
	t.Helper()
	c, err := llm.OpenCache(context.Background(), filepath.Join(t.TempDir(), "llm.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestBatchBaselineRecordsAreTheSynchronousOnes runs one Phase 0 in batch
// mode and one synchronously, with one sample per problem and with repeated
// samples (SPEC §9): the stored records, every sample's, agree field by
// field but for the latency and the measurement time (a batch has no
// per-request latency; its answers are dated when the batch completed),
// and every sample's call went into the batch.
func TestBatchBaselineRecordsAreTheSynchronousOnes(t *testing.T) {
	probs := []*triagev1.Problem{mathProblem("p1", "17"), mathProblem("p2", "27"), mathProblem("p3", "99"), mathProblem("p4", "47")}
	ids := []string{"p1", "p2", "p3", "p4"}
	solver := groundtruth.Solver{Model: "qwen3-32b", Mode: "extended"}
	for _, k := range []int{1, 3} {
		t.Run(fmt.Sprintf("samples=%d", k), func(t *testing.T) {
			run := func(batch bool) (map[string][]groundtruth.Record, *triagev1.BaselineBatch, *triagev1.BaselineSummary, *llmtest.Server) {
				c, st, srv := newBatchExecutor(t, batch, openCache(t))
				stream, err := c.RunBaseline(context.Background(), &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: probs, Batch: batch, Samples: int32(k)})
				if err != nil {
					t.Fatal(err)
				}
				var rep *triagev1.BaselineBatch
				var sum *triagev1.BaselineSummary
				for {
					msg, err := stream.Recv()
					if err != nil {
						t.Fatal(err)
					}
					if b := msg.GetBatch(); b != nil {
						rep = b
					}
					if sum = msg.GetSummary(); sum != nil {
						break
					}
				}
				recs, err := st.GetSamples(context.Background(), solver, "aime", ids)
				if err != nil {
					t.Fatal(err)
				}
				return recs, rep, sum, srv
			}
			batched, rep, bsum, bsrv := run(true)
			synced, none, ssum, ssrv := run(false)
			calls := int32(len(probs) * k)
			if none != nil {
				t.Error("a synchronous baseline reported batches")
			}
			if rep == nil || rep.GetSubmitted() != calls || rep.GetStored() != calls || rep.GetMissing() != 0 || len(rep.GetBatchIds()) != 1 || rep.GetWarning() != "" {
				t.Fatalf("batch report %v; want %d calls submitted and stored", rep, calls)
			}
			if bsrv.Count() != 0 || ssrv.Count() != int(calls) {
				t.Errorf("batch mode made %d synchronous calls, the synchronous run %d; want 0 and %d", bsrv.Count(), ssrv.Count(), calls)
			}
			if bsum.GetCorrect() != 3*int32(k) || ssum.GetCorrect() != 3*int32(k) || bsum.GetCached() != calls || ssum.GetCached() != 0 {
				t.Errorf("summaries: batch %v, synchronous %v", bsum, ssum)
			}
			for _, id := range ids {
				if len(batched[id]) != k || len(synced[id]) != k {
					t.Fatalf("%s: %d batched and %d synchronous samples, want %d", id, len(batched[id]), len(synced[id]), k)
				}
				for j := range k {
					b, s := batched[id][j], synced[id][j]
					b.Latency, b.MeasuredAt = s.Latency, s.MeasuredAt
					if diff := cmp.Diff(s, b); diff != "" {
						t.Errorf("%s sample %d: batch record differs from the synchronous one (-sync +batch):\n%s", id, j+1, diff)
					}
				}
			}
		})
	}
}

func TestBatchBaselineRefusals(t *testing.T) {
	tests := []struct {
		name     string
		batch    bool
		cache    bool
		code     codes.Code
		contains string
	}{
		{"endpoint without batches", false, true, codes.InvalidArgument, "does not offer the Batch API"},
		{"cache off", true, false, codes.FailedPrecondition, "needs the LLM cache"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cache llm.Cache
			if tt.cache {
				cache = openCache(t)
			}
			c, _, srv := newBatchExecutor(t, tt.batch, cache)
			_, _, _, err := collect(t, c, &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: []*triagev1.Problem{mathProblem("p1", "17")}, Batch: true})
			if status.Code(err) != tt.code || !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %v, want %s saying %q", err, tt.code, tt.contains)
			}
			if srv.Count() != 0 || len(srv.BatchCalls()) != 0 {
				t.Error("a refused batch baseline called the provider")
			}
		})
	}
}
