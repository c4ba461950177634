package solving

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

// fakeModel answers every request with resp (or err) and keeps the prompt.
type fakeModel struct {
	resp   llm.Response
	err    error
	prompt string
}

func (f *fakeModel) Complete(_ context.Context, req llm.Request) (llm.Response, error) {
	f.prompt = req.Messages[0].Content
	return f.resp, f.err
}

func TestSolve(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	s := New(grading.New(nil, nil), func() time.Time { return now })
	aime := problems.Problem{ID: "2024-I-1", Dataset: "aime", Text: "Find x.", Grading: []byte(`{"kind":"math","answer":"204","integer":true}`)}
	tests := []struct {
		name      string
		problem   problems.Problem
		model     fakeModel
		banner    int64
		gradeable bool
		correct   bool
		truncated bool
		errPart   string
	}{
		{"correct", aime, fakeModel{resp: llm.Response{Content: `\boxed{204}`, Cost: 50}}, 0, true, true, false, ""},
		{"thinking is not graded", aime, fakeModel{resp: llm.Response{Content: "<think>\\boxed{204}</think> so 205", Reasoning: `\boxed{204}`, Cost: 50}}, 0, true, false, false, ""},
		{"truncated", aime, fakeModel{resp: llm.Response{Content: `\boxed{204}`, Cost: 50, Truncated: true, FinishReason: "length"}}, 0, true, false, true, ""},
		{"model failed", aime, fakeModel{err: errors.New("boom")}, 0, false, false, false, "model call failed: boom"},
		{"endpoint refused", aime, fakeModel{err: &llm.EndpointError{Endpoint: "q", Err: &llm.StatusError{StatusCode: 401, Message: "Incorrect API key provided.", Code: "invalid_api_key"}}}, 0, false, false, false,
			`model call failed: endpoint "q": HTTP 401 Unauthorized (invalid_api_key): Incorrect API key provided.`},
		{"no output tokens", aime, fakeModel{resp: llm.Response{Content: `\boxed{204}`}}, 0, false, false, false, "no output tokens"},
		{"bad grading", problems.Problem{ID: "x", Dataset: "d", Text: "t", Grading: []byte(`{"kind":"essay"}`)}, fakeModel{}, 0, false, false, false, "grading.kind"},
		{"code without a sandbox", problems.Problem{ID: "c", Dataset: "lcb", Text: "t", Grading: []byte(`{"kind":"code","code":{"testtype":"stdin","public_tests":[{"input":"","output":"1"}]}}`)},
			fakeModel{resp: llm.Response{Content: "```python\nprint(1)\n```", Cost: 9}}, 0, false, false, false, "grading failed"},
		{"banner", aime, fakeModel{resp: llm.Response{Content: `\boxed{204}`, Cost: 50}}, 1500, true, true, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.model
			a, err := s.Solve(context.Background(), &m, tt.problem, tt.banner)
			if err != nil {
				t.Fatal(err)
			}
			if a.Gradeable != tt.gradeable || a.Correct() != tt.correct || a.Truncated != tt.truncated || !strings.Contains(a.Error, tt.errPart) {
				t.Errorf("attempt %+v", a)
			}
			if wantFailed := tt.model.err != nil; a.CallFailed != wantFailed {
				t.Errorf("CallFailed = %v, want %v", a.CallFailed, wantFailed)
			}
			if !tt.gradeable && a.MeasuredAt.IsZero() {
				t.Error("a failed attempt has no time")
			}
			if m.prompt != "" && strings.Contains(m.prompt, "strict output-token budget of 1500 tokens") != (tt.banner > 0) {
				t.Errorf("banner presence wrong in prompt:\n%s", m.prompt)
			}
			if m.prompt != "" && !strings.Contains(m.prompt, tt.problem.Text) {
				t.Errorf("problem text missing from prompt:\n%s", m.prompt)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Solve(ctx, &fakeModel{err: context.Canceled}, aime, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled solve returned %v", err)
	}
}

// TestRequestIsWhatSolveSends: a request rendered ahead of time (for a
// batch) is the one Solve sends, so it has the same cache key.
func TestRequestIsWhatSolveSends(t *testing.T) {
	s := New(grading.New(nil, nil), time.Now)
	aime := problems.Problem{ID: "2024-I-1", Dataset: "aime", Text: "Find x.", Grading: []byte(`{"kind":"math","answer":"204","integer":true}`)}
	for _, banner := range []int64{0, 1500} {
		m := &fakeModel{resp: llm.Response{Content: `\boxed{204}`, Cost: 50}}
		if _, err := s.Solve(context.Background(), m, aime, banner); err != nil {
			t.Fatal(err)
		}
		req, err := Request(aime, banner, 0)
		ok := err == nil
		if !ok || len(req.Messages) != 1 || req.Messages[0].Role != llm.RoleUser || req.Messages[0].Content != m.prompt {
			t.Errorf("banner %d: Request %+v, %v; Solve sent %q", banner, req, ok, m.prompt)
		}
	}
	if _, err := Request(problems.Problem{ID: "x", Dataset: "d", Text: "t", Grading: []byte(`{"kind":"essay"}`)}, 0, 0); err == nil {
		t.Error("a problem that cannot be prompted gave a request")
	}
}

// putFailingCache misses every lookup and fails every store, as a cache
// whose database is briefly unreachable.
type putFailingCache struct{}

func (putFailingCache) Get(context.Context, string) (llm.Response, bool, error) {
	return llm.Response{}, false, nil
}

func (putFailingCache) Put(context.Context, string, llm.Response) error {
	return errors.New("connection refused")
}

// memCache is an in-memory llm.Cache.
type memCache struct {
	mu sync.Mutex
	m  map[string]llm.Response
}

func (c *memCache) Get(_ context.Context, k string) (llm.Response, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[k]
	return r, ok, nil
}

func (c *memCache) Put(_ context.Context, k string, r llm.Response) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]llm.Response{}
	}
	c.m[k] = r
	return nil
}

// TestSolveThroughTheGateway: with a real gateway client, an answer the
// cache cannot store is graded and its cost kept (it was paid for; the
// failure is reported, not returned), and an answer without usage is not
// gradeable and not cached, so solving the problem again asks the model.
func TestSolveThroughTheGateway(t *testing.T) {
	aime := problems.Problem{ID: "2024-I-1", Dataset: "aime", Text: "Find x.", Grading: []byte(`{"kind":"math","answer":"204","integer":true}`)}
	answer := llmtest.Completion{Content: `\boxed{204}`, PromptTokens: 30, CompletionTokens: 50}
	tests := []struct {
		name      string
		reply     llmtest.Reply
		cache     llm.Cache
		gradeable bool
		cost      int64
		errPart   string
		reported  int // cache store failures reported
		calls     int // model calls after solving twice
	}{
		{"cache store fails", llmtest.OpenAI(answer), putFailingCache{}, true, 50, "", 2, 2},
		{"cached", llmtest.OpenAI(answer), &memCache{}, true, 50, "", 0, 1},
		{"no usage", llmtest.NoUsage(answer), &memCache{}, false, 0, "the provider reported no output tokens", 0, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return tc.reply }))
			var mu sync.Mutex
			reported := 0
			c, err := llm.New(llm.Endpoint{Name: "q", BaseURL: srv.URL(), Model: "m", Mode: llm.ModeStandard, Timeout: 5 * time.Second},
				llm.WithCache(tc.cache), llm.WithCacheStoreFailed(func(_ context.Context, err error) {
					mu.Lock()
					defer mu.Unlock()
					if strings.Contains(err.Error(), "connection refused") {
						reported++
					}
				}))
			if err != nil {
				t.Fatal(err)
			}
			s := New(grading.New(nil, nil), time.Now)
			for range 2 {
				a, err := s.Solve(context.Background(), c, aime, 0)
				if err != nil {
					t.Fatal(err)
				}
				if a.Gradeable != tc.gradeable || a.Correct() != tc.gradeable || a.Cost() != tc.cost || a.CallFailed || !strings.Contains(a.Error, tc.errPart) {
					t.Errorf("attempt gradeable %v correct %v cost %d error %q; want gradeable %v cost %d error %q",
						a.Gradeable, a.Correct(), a.Cost(), a.Error, tc.gradeable, tc.cost, tc.errPart)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if srv.Count() != tc.calls || reported != tc.reported {
				t.Errorf("%d model calls, %d cache failures reported; want %d, %d", srv.Count(), reported, tc.calls, tc.reported)
			}
		})
	}
}
