package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/apperr"
)

// fakeClock is a clock that sleeping advances: the client's polls and
// the server's batch statuses move together, without waiting.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
	// onSleep, when set, runs before each sleep; an error ends it.
	onSleep func(n int) error
}

func newFakeClock() *fakeClock { return &fakeClock{t: testNow} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	n, hook := len(c.sleeps), c.onSleep
	c.mu.Unlock()
	if hook != nil {
		if err := hook(n); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
	return nil
}

// echoHandler answers every prompt deterministically from its text, so
// that a batched and a synchronous call of one request get the same body;
// a prompt starting "bad" gets a 400.
func echoHandler(_ int, r llmtest.Recorded) llmtest.Reply {
	var req struct {
		Messages []Message `json:"messages"`
	}
	_ = json.Unmarshal(r.Body, &req)
	q := req.Messages[0].Content
	if strings.HasPrefix(q, "bad") {
		return llmtest.BadRequest("This model's maximum context length is 10 tokens.")
	}
	return llmtest.OpenAI(llmtest.Completion{Content: "answer to " + q, PromptTokens: 7, CompletionTokens: 3 + len(q), ReasoningTokens: len(q)})
}

func batchRequests(prompts ...string) []Request {
	out := make([]Request, len(prompts))
	for i, p := range prompts {
		out[i] = userRequest(p)
	}
	return out
}

// batchSetup is a server with the Batch API, a cache, and a client on
// both driven by one fake clock.
type batchSetup struct {
	srv   *llmtest.Server
	clock *fakeClock
	cache *SQLCache
	ep    Endpoint
}

func newBatchSetup(t *testing.T, b llmtest.BatchBehavior, opts ...llmtest.Option) *batchSetup {
	t.Helper()
	clock := newFakeClock()
	srv := llmtest.NewServer(t, append([]llmtest.Option{llmtest.WithHandler(echoHandler), llmtest.WithClock(clock.now), llmtest.WithBatch(b), llmtest.WithAPIKey(testAPIKey)}, opts...)...)
	cache, err := OpenCache(context.Background(), filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cache.Close() })
	ep := testEndpoint(srv)
	ep.Batch = true
	return &batchSetup{srv: srv, clock: clock, cache: cache, ep: ep}
}

func (s *batchSetup) client(t *testing.T, cache Cache) *Client {
	t.Helper()
	var sl sleeps
	return newTestClient(t, s.ep, &sl, WithCache(cache), WithClock(s.clock.now), WithSleep(s.clock.sleep))
}

var prompts = []string{"one", "two", "three", "four", "five"}

func TestPrefillGivesTheSynchronousResponses(t *testing.T) {
	ctx := context.Background()
	s := newBatchSetup(t, llmtest.BatchBehavior{})
	c := s.client(t, s.cache)
	rep, err := c.Prefill(ctx, append(batchRequests(prompts...), userRequest("one")), BatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Requests != 5 || rep.Submitted != 5 || rep.Stored != 5 || rep.Missing != 0 || rep.ProblemCount != 0 || len(rep.Batches) != 1 {
		t.Fatalf("report %+v", rep)
	}
	if w := rep.Warning(); w != "" {
		t.Errorf("warning %q for a batch that answered everything", w)
	}
	batched := map[string]Response{}
	for _, p := range prompts {
		r, err := c.Complete(ctx, userRequest(p))
		if err != nil {
			t.Fatal(err)
		}
		batched[p] = r
	}
	if n := s.srv.Count(); n != 0 {
		t.Fatalf("after the batch, Complete made %d synchronous calls, want 0", n)
	}

	// The synchronous path, on a fresh cache and server.
	sync := newBatchSetup(t, llmtest.BatchBehavior{})
	sc := sync.client(t, nil)
	for _, p := range prompts {
		want, err := sc.Complete(ctx, userRequest(p))
		if err != nil {
			t.Fatal(err)
		}
		got := batched[p]
		if !got.CacheHit || got.BatchID != rep.Batches[0] || got.Attempts != 1 || got.Latency != 0 {
			t.Errorf("%s: batch metadata CacheHit=%v BatchID=%q Attempts=%d Latency=%v", p, got.CacheHit, got.BatchID, got.Attempts, got.Latency)
		}
		// The measurement is the same; only where and when it was made differ.
		got.CacheHit, got.BatchID, got.ObtainedAt, got.Latency = false, "", want.ObtainedAt, want.Latency
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if !bytes.Equal(gj, wj) {
			t.Errorf("%s: batched response\n%s\nsynchronous\n%s", p, gj, wj)
		}
	}

	// Each input line's body is byte for byte what the synchronous path sent.
	var input []byte
	for _, call := range s.srv.BatchCalls() {
		if call.Method == http.MethodPost && call.Path == llmtest.FilesPath {
			input = call.Body
		}
	}
	for _, r := range sync.srv.Requests() {
		if !bytes.Contains(input, append(append([]byte(`"body":`), r.Body...), []byte("}\n")...)) {
			t.Errorf("the batch input lacks the synchronous body %s", r.Body)
		}
	}
}

func TestPrefillResumesAfterARestart(t *testing.T) {
	ctx := context.Background()
	s := newBatchSetup(t, llmtest.BatchBehavior{Validating: time.Minute, InProgress: time.Hour, Finalizing: time.Minute})
	path := filepath.Join(t.TempDir(), "resume.db")
	first, err := OpenCache(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	// The process dies at its first wait: the batch exists and is stored.
	killed := errors.New("killed")
	s.clock.onSleep = func(int) error { return killed }
	_, err = s.client(t, first).Prefill(ctx, batchRequests(prompts...), BatchOptions{})
	if !errors.Is(err, killed) {
		t.Fatalf("first run: %v, want the kill", err)
	}
	_ = first.Close()
	s.clock.onSleep = nil
	submitted := len(s.srv.BatchCalls())

	second, err := OpenCache(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	pending, err := second.PendingBatches(ctx, s.ep.BaseURL)
	if err != nil || len(pending) != 1 || len(pending[0].Keys) != 5 {
		t.Fatalf("stored pending batches %+v, %v", pending, err)
	}
	rep, err := s.client(t, second).Prefill(ctx, batchRequests(prompts...), BatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Resumed != 5 || rep.Submitted != 0 || rep.Stored != 5 || rep.Missing != 0 || rep.Batches[0] != pending[0].ID {
		t.Errorf("report %+v", rep)
	}
	if n := s.srv.BatchSubmissions(); n != 1 {
		t.Errorf("%d batches created, want 1", n)
	}
	for _, call := range s.srv.BatchCalls()[submitted:] {
		if call.Method == http.MethodPost {
			t.Errorf("the resumed run posted %s", call.Path)
		}
	}
	if pending, _ := second.PendingBatches(ctx, s.ep.BaseURL); len(pending) != 0 {
		t.Errorf("batches still pending after reading them: %+v", pending)
	}
	// A third run finds everything cached.
	rep, err = s.client(t, second).Prefill(ctx, batchRequests(prompts...), BatchOptions{})
	if err != nil || rep.Cached != 5 || len(rep.Batches) != 0 {
		t.Errorf("third run: %+v, %v", rep, err)
	}
}

func TestPrefillLeavesUnansweredRequestsToTheSynchronousPath(t *testing.T) {
	tests := []struct {
		name      string
		behavior  llmtest.BatchBehavior
		prompts   []string
		stored    int
		problem   string
		syncCalls int
	}{
		{"expired", llmtest.BatchBehavior{End: "expired", Answered: 2}, prompts, 2, "batch_expired", 3},
		{"failed", llmtest.BatchBehavior{End: "failed"}, prompts, 0, "failed: batch_failed", 5},
		{"cancelled", llmtest.BatchBehavior{End: "cancelled", Answered: 4}, prompts, 4, "batch_cancelled", 1},
		{"error file", llmtest.BatchBehavior{}, []string{"one", "bad two", "three"}, 2, "HTTP 400 Bad Request: This model's maximum context length", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s := newBatchSetup(t, tt.behavior)
			c := s.client(t, s.cache)
			rep, err := c.Prefill(ctx, batchRequests(tt.prompts...), BatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Stored != tt.stored || rep.Missing != len(tt.prompts)-tt.stored {
				t.Errorf("report %+v", rep)
			}
			if w := rep.Warning(); !strings.Contains(w, tt.problem) || !strings.Contains(w, fmt.Sprintf("left %d of %d", rep.Missing, len(tt.prompts))) {
				t.Errorf("warning %q lacks %q", w, tt.problem)
			}
			for _, p := range tt.prompts {
				_, _ = c.Complete(ctx, userRequest(p))
			}
			if n := s.srv.Count(); n != tt.syncCalls {
				t.Errorf("%d synchronous calls, want %d", n, tt.syncCalls)
			}
		})
	}
}

func TestPrefillHostileOutput(t *testing.T) {
	huge := `{"custom_id":"` + strings.Repeat("x", 5000) + `"}`
	tamper := func(out []byte) []byte {
		lines := bytes.SplitAfter(out, []byte("\n"))
		var b bytes.Buffer
		b.WriteString(`{"id":"r","custom_id":"not-ours","response":{"status_code":200,"body":{}},"error":null}` + "\n")
		b.WriteString("not json at all\n")
		b.WriteString(huge + "\n")
		b.Write(lines[0])
		b.Write(lines[0]) // a repeated line
		// The second line is cut in the middle; the others follow.
		b.Write(lines[1][:len(lines[1])/2])
		b.WriteString("\n")
		for _, l := range lines[2:] {
			b.Write(l)
		}
		// A well-formed answer under a key of no request of the batch: it
		// must not reach the cache.
		b.WriteString(`{"id":"r","custom_id":"` + strings.Repeat("0", 64) + `","response":{"status_code":200,"body":` + string(llmtest.OK("planted").Body) + `},"error":null}`)
		return b.Bytes()
	}
	s := newBatchSetup(t, llmtest.BatchBehavior{Tamper: tamper})
	c := s.client(t, s.cache)
	rep, err := c.Prefill(context.Background(), batchRequests(prompts...), BatchOptions{MaxLineBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stored != 4 || rep.Missing != 1 {
		t.Errorf("report %+v", rep)
	}
	for _, want := range []string{`custom_id "not-ours" is not a request of this batch`, "line 2: not a JSON result line", "line 3: longer than 4096 bytes", "line 6: not a JSON result line", "is not a request"} {
		found := false
		for _, p := range rep.Problems {
			found = found || strings.Contains(p, want)
		}
		if !found {
			t.Errorf("no problem says %q: %q", want, rep.Problems)
		}
	}
	if rep.ProblemCount != 5 {
		t.Errorf("%d problems, want 5: %q", rep.ProblemCount, rep.Problems)
	}
	if _, planted, _ := s.cache.Get(context.Background(), strings.Repeat("0", 64)); planted {
		t.Error("an answer under an unknown custom_id reached the cache")
	}
}

func TestPrefillRefusals(t *testing.T) {
	ctx := context.Background()
	s := newBatchSetup(t, llmtest.BatchBehavior{})
	tests := []struct {
		name  string
		batch bool
		cache Cache
		want  string
	}{
		{"no batch API", false, s.cache, "does not offer the Batch API"},
		{"cache off", true, nil, "needs the LLM cache"},
		{"cache without batches", true, mapCache{}, "cache that records batches"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ep := s.ep
			ep.Batch = tt.batch
			var sl sleeps
			c := newTestClient(t, ep, &sl, WithCache(tt.cache))
			_, err := c.Prefill(ctx, batchRequests("one"), BatchOptions{})
			if _, ok := errors.AsType[*apperr.PreconditionError](err); !ok || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want a precondition saying %q", err, tt.want)
			}
		})
	}
	if len(s.srv.BatchCalls()) != 0 {
		t.Error("a refused prefill called the Batch API")
	}
}

// mapCache is a Cache that records no batches.
type mapCache map[string]Response

func (m mapCache) Get(_ context.Context, k string) (Response, bool, error) {
	r, ok := m[k]
	return r, ok, nil
}

func (m mapCache) Put(_ context.Context, k string, r Response) error { m[k] = r; return nil }

func TestPrefillSplitsAndBacksOff(t *testing.T) {
	s := newBatchSetup(t, llmtest.BatchBehavior{Validating: time.Minute, InProgress: 2 * time.Hour, Finalizing: time.Minute})
	c := s.client(t, s.cache)
	rep, err := c.Prefill(context.Background(), batchRequests(prompts...), BatchOptions{MaxRequests: 2, PollBase: 10 * time.Second, PollMax: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Batches) != 3 || rep.Stored != 5 {
		t.Fatalf("report %+v", rep)
	}
	// Waits grow from [5s, 10s) and are capped at [2.5m, 5m); rand is 0.5.
	want := []time.Duration{7500 * time.Millisecond, 15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute}
	for i, w := range want {
		if s.clock.sleeps[i] != w {
			t.Fatalf("sleeps %v, want to start %v", s.clock.sleeps, want)
		}
	}
	for _, d := range s.clock.sleeps[len(want):] {
		if d != 3*time.Minute+45*time.Second {
			t.Fatalf("capped sleeps %v", s.clock.sleeps)
		}
	}
	// Every poll round asks each open batch once.
	polls := 0
	for _, call := range s.srv.BatchCalls() {
		if call.Method == http.MethodGet && strings.HasPrefix(call.Path, llmtest.BatchesPath+"/") {
			polls++
		}
	}
	if rounds := len(s.clock.sleeps) + 1; polls != 3*rounds {
		t.Errorf("%d polls for %d rounds of 3 batches", polls, rounds)
	}
}

func TestPrefillMaxWait(t *testing.T) {
	ctx := context.Background()
	s := newBatchSetup(t, llmtest.BatchBehavior{InProgress: 48 * time.Hour})
	c := s.client(t, s.cache)
	_, err := c.Prefill(ctx, batchRequests(prompts...), BatchOptions{MaxWait: time.Hour})
	var we *BatchWaitError
	if !errors.As(err, &we) || len(we.Pending) != 1 || !strings.Contains(we.Pending[0], "in_progress") || we.Waited < time.Hour {
		t.Fatalf("error %v, want a BatchWaitError", err)
	}
	if pending, _ := s.cache.PendingBatches(ctx, s.ep.BaseURL); len(pending) != 1 {
		t.Errorf("the batch waited for is no longer pending: %+v", pending)
	}
}

// TestPrefillStopsBeforeTheContextDeadline: a wait whose context ends
// before MaxWait (a served Executor's deadline for long calls) stops with
// the resumable BatchWaitError while the caller can still be told, not
// with the context's error.
func TestPrefillStopsBeforeTheContextDeadline(t *testing.T) {
	s := newBatchSetup(t, llmtest.BatchBehavior{InProgress: 48 * time.Hour})
	s.clock.mu.Lock()
	s.clock.t = time.Now() // the deadline is on the real clock
	start := s.clock.t
	s.clock.mu.Unlock()
	ctx, cancel := context.WithDeadline(context.Background(), start.Add(2*time.Hour))
	defer cancel()
	c := s.client(t, s.cache)
	_, err := c.Prefill(ctx, batchRequests(prompts...), BatchOptions{})
	var we *BatchWaitError
	if !errors.As(err, &we) || len(we.Pending) != 1 {
		t.Fatalf("error %v, want a BatchWaitError", err)
	}
	if end := s.clock.now(); !end.Add(deadlineMargin).Before(start.Add(2*time.Hour)) || end.Sub(start) < time.Hour {
		t.Errorf("the wait ended %v after its start, want between 1 h and the deadline (2 h) less the margin", end.Sub(start))
	}
}

func TestPrefillUnknownBatch(t *testing.T) {
	ctx := context.Background()
	s := newBatchSetup(t, llmtest.BatchBehavior{})
	c := s.client(t, s.cache)
	w, _ := buildWire(c.ep, c.extraBody, userRequest("one"))
	key, _ := cacheKey(c.baseURL, &w, 0)
	if err := s.cache.SaveBatch(ctx, StoredBatch{ID: "batch_gone", BaseURL: c.baseURL, CreatedAt: testNow, Keys: []string{key}}); err != nil {
		t.Fatal(err)
	}
	rep, err := c.Prefill(ctx, batchRequests("one"), BatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Resumed != 1 || rep.Missing != 1 || !strings.Contains(rep.Warning(), "does not know it") {
		t.Errorf("report %+v", rep)
	}
	if pending, _ := s.cache.PendingBatches(ctx, c.baseURL); len(pending) != 0 {
		t.Errorf("an unknown batch stays pending: %+v", pending)
	}
}

// TestPrefillFileBound: an output file is read up to MaxFileBytes; the
// requests past it stay for the synchronous path.
func TestPrefillFileBound(t *testing.T) {
	const width = 2000
	pad := func(out []byte) []byte {
		var b bytes.Buffer
		for _, l := range bytes.SplitAfter(out, []byte("\n")) {
			if len(l) == 0 {
				continue
			}
			l = bytes.TrimSuffix(l, []byte("\n"))
			if len(l) >= width {
				panic("line too long for the test's padding")
			}
			b.Write(l)
			b.Write(bytes.Repeat([]byte(" "), width-len(l)))
			b.WriteString("\n")
		}
		return b.Bytes()
	}
	s := newBatchSetup(t, llmtest.BatchBehavior{Tamper: pad})
	rep, err := s.client(t, s.cache).Prefill(context.Background(), batchRequests(prompts...), BatchOptions{MaxFileBytes: 2*(width+1) + 10})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stored != 2 || rep.Missing != 3 || rep.ProblemCount != 1 || !strings.Contains(rep.Problems[0], "line 3: the file exceeds 4012 bytes") {
		t.Errorf("report %+v", rep)
	}
}

// TestPrefillReportsAnswersLeftUnreported: a batch's answers no call
// marked reported — the process died after reading the batch and before
// reporting them — are answered again, from the cache, by the next
// Prefill (BatchReport.Answered, Unreported), until they are marked; an
// answer a synchronous call stored after the batch failed its request is
// never taken for the batch's.
func TestPrefillReportsAnswersLeftUnreported(t *testing.T) {
	ctx := context.Background()
	s := newBatchSetup(t, llmtest.BatchBehavior{End: "expired", Answered: 3})
	c := s.client(t, s.cache)
	reqs := batchRequests(prompts...)
	rep, err := c.Prefill(ctx, reqs, BatchOptions{})
	if err != nil || rep.Stored != 3 || rep.Unreported != 0 {
		t.Fatalf("first prefill: %+v, %v", rep, err)
	}
	batch := rep.Answered[0]
	for _, r := range reqs[3:] { // the expired requests go synchronously
		if _, err := c.Complete(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// The first answer was reported before the process died.
	if err := c.MarkReported(ctx, reqs[0]); err != nil {
		t.Fatal(err)
	}
	// What the restart will report, as a quote reads it, reporting nothing.
	var want Unreported
	for _, r := range reqs[1:3] {
		key, _, err := c.batchKey(r)
		if err != nil {
			t.Fatal(err)
		}
		resp, _, err := s.cache.Get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		want.Answers++
		want.PromptTokens += int64(resp.PromptTokens)
		want.OutputTokens += int64(resp.Cost)
	}
	if got, err := c.Unreported(ctx, append(reqs, reqs[1])); err != nil || got != want || want.OutputTokens == 0 {
		t.Errorf("Unreported = %+v, %v; want %+v (each request once)", got, err, want)
	}

	rep, err = c.Prefill(ctx, reqs, BatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"", batch, batch, "", ""}; rep.Unreported != 2 || rep.Cached != 5 || fmt.Sprint(rep.Answered) != fmt.Sprint(want) {
		t.Errorf("after the restart: %+v, want answers %q reported again", rep, want)
	}
	for _, r := range reqs[1:3] {
		if err := c.MarkReported(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if rep, err = c.Prefill(ctx, reqs, BatchOptions{}); err != nil || rep.Unreported != 0 || strings.Join(rep.Answered, "") != "" {
		t.Errorf("once reported: %+v, %v", rep, err)
	}
	if got, err := c.Unreported(ctx, reqs); err != nil || got != (Unreported{}) {
		t.Errorf("Unreported once reported = %+v, %v; want none", got, err)
	}
}

// TestPrefillStop: BatchOptions.Stop closed before Prefill submits no
// batch (its requests count as missing); closing while Prefill waits ends
// the wait at its next round with the resumable BatchWaitError, the batch
// submitted and recorded (pending for the next call) — a submission under
// way is never cut off, which could leave a batch created at the provider
// and recorded nowhere.
func TestPrefillStop(t *testing.T) {
	ctx := context.Background()
	t.Run("before", func(t *testing.T) {
		s := newBatchSetup(t, llmtest.BatchBehavior{InProgress: 48 * time.Hour})
		stop := make(chan struct{})
		close(stop)
		rep, err := s.client(t, s.cache).Prefill(ctx, batchRequests(prompts...), BatchOptions{MaxWait: time.Hour, Stop: stop})
		if err != nil || rep.Submitted != 0 || rep.Missing != len(prompts) {
			t.Errorf("Prefill = %+v, %v; want nothing submitted, every request missing", rep, err)
		}
		if pending, _ := s.cache.PendingBatches(ctx, s.ep.BaseURL); len(pending) != 0 {
			t.Errorf("pending batches %+v after a stop before any", pending)
		}
	})
	t.Run("while waiting", func(t *testing.T) {
		s := newBatchSetup(t, llmtest.BatchBehavior{InProgress: 48 * time.Hour})
		stop := make(chan struct{})
		s.clock.onSleep = func(n int) error {
			if n == 1 {
				close(stop)
			}
			return nil
		}
		rep, err := s.client(t, s.cache).Prefill(ctx, batchRequests(prompts...), BatchOptions{MaxWait: time.Hour, Stop: stop})
		var we *BatchWaitError
		if !errors.As(err, &we) || len(we.Pending) != 1 || we.Waited >= time.Hour {
			t.Fatalf("error %v, want a BatchWaitError before MaxWait", err)
		}
		if rep.Submitted != len(prompts) {
			t.Errorf("%d requests submitted, want %d", rep.Submitted, len(prompts))
		}
		if pending, _ := s.cache.PendingBatches(ctx, s.ep.BaseURL); len(pending) != 1 {
			t.Errorf("pending batches %+v, want the one submitted, for the next call", pending)
		}
		if len(s.clock.sleeps) != 1 {
			t.Errorf("slept %v; want the one sleep the stop came in", s.clock.sleeps)
		}
	})
}

// TestPrefillLeavesUnmeasuredAnswersUncached: a batch line whose answer
// reports no usage measures nothing (Response.Measured): it is not cached
// but left to the synchronous path, and the report says why.
func TestPrefillLeavesUnmeasuredAnswersUncached(t *testing.T) {
	ctx := context.Background()
	noUsage := func(n int, r llmtest.Recorded) llmtest.Reply {
		if strings.Contains(string(r.Body), "two") {
			return llmtest.NoUsage(llmtest.Completion{Content: "answer to two"})
		}
		return echoHandler(n, r)
	}
	s := newBatchSetup(t, llmtest.BatchBehavior{}, llmtest.WithHandler(noUsage))
	rep, err := s.client(t, s.cache).Prefill(ctx, batchRequests("one", "two", "three"), BatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stored != 2 || rep.Missing != 1 || rep.ProblemCount != 1 || !strings.Contains(rep.Problems[0], "the provider reported no output tokens") {
		t.Errorf("report %+v; want two stored, and one missing for want of usage", rep)
	}
	if rep.Answered[1] != "" {
		t.Errorf("Answered = %q: the unmeasured answer is not one of the batch's", rep.Answered)
	}
	if ok, err := s.client(t, s.cache).Cached(ctx, userRequest("two")); ok || err != nil {
		t.Errorf("Cached(two) = %v, %v; want not cached", ok, err)
	}
}
