package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// deadBaseURL is the base URL of a port nothing listens on.
func deadBaseURL(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	return "http://" + addr + "/v1"
}

// failureConfig writes, in a new directory, three problems, their ground
// truth (for runs), an endpoints file with endpoint "q" at baseURL (model
// m, mode extended, two attempts, its key in Q_API_KEY) and run.yaml with
// one solver playing through endpoint; it returns run.yaml's path.
func failureConfig(t *testing.T, baseURL, endpoint, mode string) string {
	t.Helper()
	dir := t.TempDir()
	var probs, gt strings.Builder
	for i := range 3 {
		fmt.Fprintf(&probs, `{"id":"p%d","dataset":"aime","text":"Compute problem p%d.","grading":{"kind":"math","answer":"%d","integer":true}}`+"\n", i, i, i)
		fmt.Fprintf(&gt, `{"model":"m","mode":"extended","dataset":"aime","problem_id":"p%d","cost":%d,"correct":true,"measured_at":"2026-01-01T00:00:00Z"}`+"\n", i, 100+i)
	}
	files := map[string]string{
		"problems.jsonl": probs.String(),
		"gt.jsonl":       gt.String(),
		"endpoints.json": fakemodel.EndpointsFile(map[string]fakemodel.Endpoint{
			"q": {BaseURL: baseURL, Model: "m", Mode: "extended", APIKeyEnv: "Q_API_KEY", MaxAttempts: 2, Timeout: "30s"},
		}),
		"run.yaml": fmt.Sprintf(`name: failures
run_store: run.db
ground_truth_store: gt.db
problems: [problems.jsonl]
solvers: [{model: m, mode: %s, endpoint: %s}]
pool_size: 3
alphas: [0.5, 1]
strategies: [llm]
endpoints: endpoints.json
llm_cache: llm-cache.db
`, mode, endpoint),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "run.yaml")
}

// storedRecordCount is how many ground-truth records a config's store holds.
func storedRecordCount(t *testing.T, config string) int {
	t.Helper()
	st, err := groundtruth.Open(context.Background(), filepath.Join(filepath.Dir(config), "gt.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	page, err := st.List(context.Background(), groundtruth.ListQuery{PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	return len(page.Records)
}

// TestBaselinePreflight: an endpoint that is unknown, plays another mode,
// is down, refuses the key, fails with 500s or does not serve its model
// stops the baseline before any problem is sent, with a message naming the
// solver, the endpoint and the provider's reason; nothing is stored, and
// the command fails.
func TestBaselinePreflight(t *testing.T) {
	server := func(opts ...llmtest.Option) func(t *testing.T) (string, *llmtest.Server) {
		return func(t *testing.T) (string, *llmtest.Server) {
			srv := llmtest.NewServer(t, opts...)
			return srv.URL(), srv
		}
	}
	tests := []struct {
		name     string
		server   func(t *testing.T) (string, *llmtest.Server)
		endpoint string
		mode     string
		want     string
	}{
		{"unknown endpoint", server(), "nope", "extended",
			`solvers[0].endpoint (m/extended): endpoint "nope" is not one the executor knows (it has ["q"])`},
		{"another mode", server(), "q", "standard",
			`solvers[0].endpoint (m/standard): endpoint "q" runs mode extended, not standard`},
		{"dead endpoint", func(t *testing.T) (string, *llmtest.Server) { return deadBaseURL(t), nil }, "q", "extended",
			`solvers[0].endpoint (m/extended): endpoint "q" (model m) does not answer: gave up after 2 attempts; last error: connection failed: connect: connection refused`},
		{"wrong key", server(llmtest.WithAPIKey("the-right-key")), "q", "extended",
			`solvers[0].endpoint (m/extended): endpoint "q" (model m) does not answer: HTTP 401 Unauthorized (invalid_api_key): Incorrect API key provided.`},
		{"500s", server(llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return llmtest.ServerError() })), "q", "extended",
			`solvers[0].endpoint (m/extended): endpoint "q" (model m) does not answer: gave up after 2 attempts; last error: HTTP 500 Internal Server Error (server_error): The server had an error while processing your request.`},
		{"unknown model", server(llmtest.WithModels("m-2")), "q", "extended",
			"solvers[0].endpoint (m/extended): endpoint \"q\" (model m) does not answer: HTTP 404 Not Found (model_not_found): The model `m` does not exist or you do not have access to it."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, srv := tt.server(t)
			config := failureConfig(t, url, tt.endpoint, tt.mode)
			env, _, logs := testEnv(map[string]string{"Q_API_KEY": "a-wrong-key"})
			err := Run(context.Background(), []string{"baseline", "--progress", "off", config}, env)
			var pre *orchestrator.PreflightError
			if !errors.As(err, &pre) || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "the baseline cannot start") {
				t.Fatalf("err = %v\nwant a preflight error with\n%s", err, tt.want)
			}
			if n := storedRecordCount(t, config); n != 0 {
				t.Errorf("%d records stored", n)
			}
			if srv != nil {
				for _, r := range srv.Requests() {
					if !strings.Contains(string(r.Body), llm.ProbePrompt) {
						t.Errorf("a problem was sent: %s", r.Body)
					}
				}
			}
			if strings.Contains(logs.String(), "baseline complete") {
				t.Errorf("the baseline says it is complete:\n%s", logs)
			}
		})
	}
}

// TestBaselineWhoseCallsAllFail: an endpoint that answers its check but
// fails every problem's call makes the baseline fail, naming the endpoint
// and the provider's reason; one that fails some says how many.
func TestBaselineWhoseCallsAllFail(t *testing.T) {
	srv := llmtest.NewServer(t, fakemodel.ProbeThen(llmtest.ServerError))
	config := failureConfig(t, srv.URL(), "q", "extended")
	env, _, logs := testEnv(map[string]string{"Q_API_KEY": "k"})
	err := Run(context.Background(), []string{"baseline", "--progress", "off", config}, env)
	want := `all 3 model calls of m/extended failed: 3× endpoint "q": gave up after 2 attempts; last error: HTTP 500 Internal Server Error (server_error): The server had an error while processing your request.`
	var failed *orchestrator.CallsFailedError
	if !errors.As(err, &failed) || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	if strings.Contains(logs.String(), "baseline complete") || !strings.Contains(logs.String(), "3 not gradeable (3 failed model calls)") {
		t.Errorf("logs:\n%s", logs)
	}

	var calls atomic.Int32 // the server runs handlers concurrently
	some := llmtest.NewServer(t, fakemodel.ProbeThen(func() llmtest.Reply {
		if calls.Add(1) <= 2 {
			return llmtest.Unauthorized()
		}
		return llmtest.OpenAI(llmtest.Completion{Content: `\boxed{1}`, CompletionTokens: 9})
	}))
	config = failureConfig(t, some.URL(), "q", "extended")
	env, _, logs = testEnv(map[string]string{"Q_API_KEY": "k"})
	if err := Run(context.Background(), []string{"baseline", "--progress", "off", config}, env); err != nil {
		t.Fatalf("a baseline with some failed calls: %v", err)
	}
	for _, want := range []string{
		`warning: 2 of 3 model calls of m/extended failed (2× endpoint "q": HTTP 401 Unauthorized (invalid_api_key): Incorrect API key provided.); the same command tries them again`,
		"baseline complete",
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
}

// TestBaselineWithoutUsage: a provider whose answers report no usage
// measures nothing. The baseline stores the problems as not gradeable,
// says why on the console and, with none gradeable, fails; the answers are
// not cached, so once the provider reports usage the same command asks it
// again and measures them. A baseline with some problems gradeable says
// why the others are not, and completes.
func TestBaselineWithoutUsage(t *testing.T) {
	answer := llmtest.Completion{Content: `\boxed{1}`, PromptTokens: 20, CompletionTokens: 9}
	tests := []struct {
		name    string
		replies []func(call int) llmtest.Reply // one per run of the command
		wantErr []string                       // per run: the error, "" for none
		want    [][]string                     // per run: lines of the console
		calls   []int                          // per run: model calls, probe excluded
	}{
		{
			name: "no usage, then fixed",
			replies: []func(int) llmtest.Reply{
				func(int) llmtest.Reply { return llmtest.NoUsage(answer) },
				func(int) llmtest.Reply { return llmtest.OpenAI(answer) },
			},
			wantErr: []string{"none of the 3 problems of m/extended solved is gradeable: 3× the provider reported no output tokens", ""},
			want: [][]string{
				{"3 not gradeable (0 failed model calls), 0 from cache", "m/extended: 3 not gradeable: 3× the provider reported no output tokens"},
				{"solved 3: 1 correct, 2 incorrect", "0 from cache", "baseline complete"},
			},
			calls: []int{3, 3},
		},
		{
			name: "some without usage",
			replies: []func(int) llmtest.Reply{func(call int) llmtest.Reply {
				if call == 1 {
					return llmtest.NoUsage(answer)
				}
				return llmtest.OpenAI(answer)
			}},
			wantErr: []string{""},
			want:    [][]string{{"1 not gradeable (0 failed model calls)", "m/extended: 1 not gradeable: 1× the provider reported no output tokens", "baseline complete"}},
			calls:   []int{3},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			run, calls := 0, 0
			srv := llmtest.NewServer(t, llmtest.WithHandler(func(_ int, r llmtest.Recorded) llmtest.Reply {
				if fakemodel.Parse(r).IsProbe() {
					return llmtest.OK("OK")
				}
				mu.Lock()
				defer mu.Unlock()
				calls++
				return tc.replies[run](calls)
			}))
			config := failureConfig(t, srv.URL(), "q", "extended")
			for i := range tc.replies {
				mu.Lock()
				run, calls = i, 0
				mu.Unlock()
				env, _, logs := testEnv(map[string]string{"Q_API_KEY": "k"})
				err := Run(context.Background(), []string{"baseline", "--progress", "off", config}, env)
				if tc.wantErr[i] == "" && err != nil {
					t.Fatalf("run %d: %v\n%s", i+1, err, logs)
				}
				if tc.wantErr[i] != "" {
					var none *orchestrator.NothingGradeableError
					if !errors.As(err, &none) || err.Error() != tc.wantErr[i] {
						t.Fatalf("run %d: err = %v\nwant %s", i+1, err, tc.wantErr[i])
					}
					if strings.Contains(logs.String(), "baseline complete") {
						t.Errorf("run %d: a baseline with nothing gradeable says it is complete:\n%s", i+1, logs)
					}
				}
				for _, want := range tc.want[i] {
					if !strings.Contains(logs.String(), want) {
						t.Errorf("run %d: console lacks %q:\n%s", i+1, want, logs)
					}
				}
				mu.Lock()
				if calls != tc.calls[i] {
					t.Errorf("run %d: %d model calls, want %d", i+1, calls, tc.calls[i])
				}
				mu.Unlock()
			}
		})
	}
}

// TestRunWithADeadPlanner: a run whose every planner call fails stores the
// cells as errors (a resume retries them) and fails, naming the endpoint
// and the reason.
func TestRunWithADeadPlanner(t *testing.T) {
	config := failureConfig(t, deadBaseURL(t), "q", "extended")
	f, err := os.OpenFile(config, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "ground_truth: [gt.jsonl]")
	f.Close()
	env, _, logs := testEnv(map[string]string{"Q_API_KEY": "k"})
	err = Run(context.Background(), []string{"run", "--progress", "off", config}, env)
	want := `all 2 planner calls failed: 2× Unavailable: endpoint "q" (model m): gave up after 2 attempts; last error: connection failed: connect: connection refused`
	var failed *orchestrator.CallsFailedError
	if !errors.As(err, &failed) || err.Error() != want {
		t.Fatalf("err = %v\nwant %s\n%s", err, want, logs)
	}
	if strings.Contains(logs.String(), "run complete") {
		t.Errorf("the run says it is complete:\n%s", logs)
	}
	// The command says what failed; the in-process services' call log
	// lines, one per failed cell, only buried it.
	if strings.Contains(logs.String(), "finished call") {
		t.Errorf("the in-process services logged their calls on the command's output:\n%s", logs)
	}
}

// TestDemoWithADeadEndpoint: the demo with an LLM endpoint that refuses
// every call fails instead of reporting a table without the LLM.
func TestDemoWithADeadEndpoint(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithAPIKey("the-right-key"))
	env, _, logs := testEnv(map[string]string{
		demoBaseURL: srv.URL(), demoModel: "m", demoAPIKeyEnv: "DEMO_KEY", "DEMO_KEY": "a-wrong-key",
	})
	err := Run(context.Background(), []string{"demo", "--progress", "off", "--out", t.TempDir()}, env)
	var failed *orchestrator.CallsFailedError
	if !errors.As(err, &failed) || !strings.Contains(err.Error(), `FailedPrecondition: endpoint "demo-`) || !strings.Contains(err.Error(), "HTTP 401 Unauthorized (invalid_api_key): Incorrect API key provided.") {
		t.Fatalf("err = %v, want every planner call failed, naming the endpoint and the 401\n%s", err, logs)
	}
}

// TestStoppedSaysWhy: a command whose context ended says why — the
// signal, not the "context canceled" its calls report — and that the same
// command resumes; other errors keep their text.
func TestStoppedSaysWhy(t *testing.T) {
	signal := errors.New("interrupt signal received")
	capped := errors.New("baseline of m/standard: spend cap $1 reached")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(signal)
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want string
	}{
		{"canceled call", ctx, status.Error(codes.Canceled, "context canceled"), "stopped: interrupt signal received; what was stored is kept, and the same command resumes"},
		{"context error", ctx, fmt.Errorf("baseline: %w", context.Canceled), "stopped: interrupt signal received; what was stored is kept, and the same command resumes"},
		{"the cause itself", ctx, signal, "stopped: interrupt signal received; what was stored is kept, and the same command resumes"},
		{"another error", ctx, errors.New("disk full"), "stopped (interrupt signal received): disk full"},
		{"a solver capped before", ctx, errors.Join(signal, capped), "stopped: interrupt signal received; what was stored is kept, and the same command resumes\nbaseline of m/standard: spend cap $1 reached"},
		{"not stopped", context.Background(), errors.New("disk full"), "disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stopped(tt.ctx, Env{}, tt.err); got == nil || got.Error() != tt.want {
				t.Errorf("stopped = %v, want %q", got, tt.want)
			}
		})
	}
	if stopped(ctx, Env{}, nil) != nil {
		t.Error("stopped(nil) is not nil")
	}
	// Drained (Env.Stop ended, the context alive): the calls in flight
	// were answered and stored.
	drained := Env{Stop: ctx}
	live := context.Background()
	drains := []struct {
		name string
		err  error
		want string
	}{
		{"drained run", fmt.Errorf("cells: %w", work.ErrStopped), "stopped: interrupt signal received; the model calls in flight were answered and stored, and the same command resumes"},
		{"drained executor", status.Error(codes.Canceled, "the baseline was stopped"), "stopped: interrupt signal received; the model calls in flight were answered and stored, and the same command resumes"},
		{"another error while draining", errors.New("disk full"), "stopped (interrupt signal received): disk full"},
		{"a solver capped before the drain", errors.Join(work.ErrStopped, capped),
			"stopped: interrupt signal received; the model calls in flight were answered and stored, and the same command resumes\nbaseline of m/standard: spend cap $1 reached"},
		{"and a store that failed to close", errors.Join(fmt.Errorf("baseline: %w", errors.Join(work.ErrStopped, capped)), errors.New("closing gt.db: disk full")),
			"stopped: interrupt signal received; the model calls in flight were answered and stored, and the same command resumes\nbaseline of m/standard: spend cap $1 reached\nclosing gt.db: disk full"},
	}
	for _, tt := range drains {
		t.Run(tt.name, func(t *testing.T) {
			if got := stopped(live, drained, tt.err); got == nil || got.Error() != tt.want {
				t.Errorf("stopped = %v, want %q", got, tt.want)
			}
		})
	}
	if stopped(live, drained, nil) != nil {
		t.Error("a command that finished while draining did not succeed")
	}
}

// TestRunStopsBeforeAnEndpointWithoutItsKey: a run whose solver's
// endpoint has its API key variable unset stops before its first call,
// saying so, and stores nothing; with nothing left to plan there it runs.
func TestRunStopsBeforeAnEndpointWithoutItsKey(t *testing.T) {
	srv, config := plannedRun(t)
	env, _, logs := testEnv(nil) // no Q_API_KEY
	err := Run(context.Background(), []string{"run", "--progress", "off", config}, env)
	var pre *orchestrator.PreflightError
	if !errors.As(err, &pre) || !strings.Contains(err.Error(), `the planner cannot call endpoint "q": its API key is missing`) {
		t.Fatalf("run without the key: %v, want a preflight error naming the endpoint\n%s", err, logs)
	}
	if n := srv.Count(); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
	env, _, logs = testEnv(map[string]string{"Q_API_KEY": "k"})
	if err := Run(context.Background(), []string{"run", "--progress", "off", config}, env); err != nil {
		t.Fatalf("run with the key: %v\n%s", err, logs)
	}
	env, _, logs = testEnv(nil)
	if err := Run(context.Background(), []string{"run", "--progress", "off", config}, env); err != nil {
		t.Errorf("a finished run, again without the key: %v, want nothing to do\n%s", err, logs)
	}
}

// plannedRun is failureConfig's run (endpoint q, extended, its API key in
// Q_API_KEY) with its ground truth imported by the run, on a test model
// that plans the first half of each pool (and answers the endpoint check's
// probe "OK"): no call fails, every plan is scored.
func plannedRun(t *testing.T) (*llmtest.Server, string) {
	t.Helper()
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(_ int, r llmtest.Recorded) llmtest.Reply {
		q := fakemodel.Parse(r)
		if q.IsProbe() {
			return llmtest.OK("OK")
		}
		return llmtest.OK(fakemodel.Plan(fakemodel.FirstHalf(fakemodel.PlannerIDs(q.Prompt())), 700))
	}))
	config := failureConfig(t, srv.URL(), "q", "extended")
	f, err := os.OpenFile(config, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("ground_truth: [gt.jsonl]\n"); err != nil {
		t.Fatal(err)
	}
	return srv, config
}
