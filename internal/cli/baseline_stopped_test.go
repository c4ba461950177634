package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// TestStoppedBaselineSaysWhatWasDone: a baseline stopped (SIGINT) after a
// few answers says how many of its problems were done, not the solvers'
// summaries, which come only at the end of their streams (a stopped one
// printed "0 already stored; solved 0").
func TestStoppedBaselineSaysWhatWasDone(t *testing.T) {
	s := newQuoteStudy(t)
	aime := studyModel(s)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var solves atomic.Int32
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(i int, r llmtest.Recorded) llmtest.Reply {
		if !fakemodel.Parse(r).IsProbe() && solves.Add(1) == 6 {
			cancel(errors.New("interrupt signal received"))
		}
		return aime.reply(i, r)
	}))
	s.write(t, "endpoints.json", fmt.Sprintf(`{"q": {"base_url": "%s", "model": "qwen3-8b", "mode": "extended", "family": "qwen",
  "max_attempts": 1, "timeout": "5s", "max_output_tokens": 4000}}`, srv.URL()))
	env, _, logs := testEnv(nil)
	err := Run(ctx, []string{"baseline", "--progress", "off", s.cfg}, env)
	if err == nil || !strings.Contains(err.Error(), "stopped: interrupt signal received") {
		t.Fatalf("baseline: %v, want it stopped\n%s", err, logs)
	}
	out := logs.String()
	if !strings.Contains(out, "baseline stopped: problems ") || !strings.Contains(out, fmt.Sprintf(" of %d done, 0 of them stored before this run", len(s.probs))) {
		t.Errorf("no line says what was done:\n%s", out)
	}
	if strings.Contains(out, "already stored; solved") {
		t.Errorf("a stopped baseline printed the solvers' summaries:\n%s", out)
	}
}

// TestDrainedBaselineKeepsItsCallsInFlight: a baseline asked to stop
// (Env.Stop, the first interrupt) after a few answers starts no new call,
// lets the calls in flight be answered and stored, says so, and the next
// baseline asks the model nothing it answered.
func TestDrainedBaselineKeepsItsCallsInFlight(t *testing.T) {
	s := newQuoteStudy(t)
	aime := studyModel(s)
	stop, stopWith := context.WithCancelCause(context.Background())
	defer stopWith(nil)
	var solves atomic.Int32
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(i int, r llmtest.Recorded) llmtest.Reply {
		if fakemodel.Parse(r).IsProbe() {
			return aime.reply(i, r)
		}
		if solves.Add(1) == 6 {
			stopWith(errors.New("interrupt signal received"))
		}
		return rightAnswer(aime, r)
	}))
	s.write(t, "endpoints.json", fmt.Sprintf(`{"q": {"base_url": "%s", "model": "qwen3-8b", "mode": "extended", "family": "qwen",
  "max_attempts": 1, "timeout": "5s", "max_output_tokens": 4000}}`, srv.URL()))
	env, _, logs := testEnv(nil)
	env.Stop = stop
	err := Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env)
	if err == nil || !strings.Contains(err.Error(), "stopped: interrupt signal received; the model calls in flight were answered and stored") {
		t.Fatalf("baseline: %v, want it drained\n%s", err, logs)
	}
	if !strings.Contains(logs.String(), drainNotice) || !strings.Contains(logs.String(), "baseline stopped: problems ") {
		t.Errorf("the drained baseline did not say what it does and did:\n%s", logs)
	}
	asked := int(solves.Load())
	if asked >= len(s.probs) {
		t.Fatalf("the model was asked %d times of %d problems: nothing was stopped", asked, len(s.probs))
	}
	env, _, logs = testEnv(nil)
	if err := Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env); err != nil {
		t.Fatalf("resumed baseline: %v\n%s", err, logs)
	}
	if again := int(solves.Load()) - asked; again != len(s.probs)-asked {
		t.Errorf("the resumed baseline asked %d calls, want the %d not asked before (every answered call was stored)", again, len(s.probs)-asked)
	}
}

// TestDrainedBaselineOfTwoSolvers: asked to stop while a slow solver's call
// is in flight, a baseline of two solvers lets that call be answered and
// stored even though the fast solver drains first (its drain does not cut
// the other solver off), and the next baseline asks no call again.
func TestDrainedBaselineOfTwoSolvers(t *testing.T) {
	s := newQuoteStudy(t)
	aime := studyModel(s)
	stop, stopWith := context.WithCancelCause(context.Background())
	defer stopWith(nil)
	var (
		mu    sync.Mutex
		asked = map[string]int{} // model + prompt → calls
	)
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(i int, r llmtest.Recorded) llmtest.Reply {
		q := fakemodel.Parse(r)
		if q.IsProbe() {
			return aime.reply(i, r)
		}
		var body struct{ Model string }
		_ = json.Unmarshal(r.Body, &body)
		mu.Lock()
		asked[body.Model+"\x00"+q.Prompt()]++
		mu.Unlock()
		reply := rightAnswer(aime, r)
		if body.Model == "slow-model" {
			stopWith(errors.New("interrupt signal received")) // with this call in flight
			reply.Delay = 500 * time.Millisecond
		}
		return reply
	}))
	s.write(t, "endpoints.json", fmt.Sprintf(`{
  "q": {"base_url": "%[1]s", "model": "qwen3-8b", "mode": "extended", "family": "qwen", "max_attempts": 1, "timeout": "5s", "max_output_tokens": 4000},
  "s": {"base_url": "%[1]s", "model": "slow-model", "mode": "standard", "family": "qwen", "max_attempts": 1, "timeout": "5s", "max_output_tokens": 4000}}`, srv.URL()))
	cfg, err := os.ReadFile(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.write(t, "run.yaml", strings.Replace(string(cfg), "solvers: [{model: qwen3-8b, mode: extended, endpoint: q}]",
		"solvers: [{model: qwen3-8b, mode: extended, endpoint: q}, {model: slow-model, mode: standard, endpoint: s}]", 1))
	env, _, logs := testEnv(nil)
	env.Stop = stop
	err = Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env)
	if err == nil || !strings.Contains(err.Error(), "stopped: interrupt signal received; the model calls in flight were answered and stored") {
		t.Fatalf("baseline: %v, want it drained\n%s", err, logs)
	}
	mu.Lock()
	first := maps.Clone(asked)
	mu.Unlock()
	env, _, logs = testEnv(nil)
	if err := Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env); err != nil {
		t.Fatalf("resumed baseline: %v\n%s", err, logs)
	}
	mu.Lock()
	defer mu.Unlock()
	for k, n := range asked {
		if first[k] > 0 && n > first[k] {
			t.Errorf("a call asked before the stop was asked again (model %s)", strings.SplitN(k, "\x00", 2)[0])
		}
	}
}

// rightAnswer answers r's problem right and in full: nothing is stored as
// a failed call or not gradeable, which the next baseline would rightly
// ask again (aimeModel.reply fails some on purpose).
func rightAnswer(aime *aimeModel, r llmtest.Recorded) llmtest.Reply {
	prompt := fakemodel.Parse(r).Prompt()
	for text, answer := range aime.answers {
		if strings.Contains(prompt, text) {
			return llmtest.VLLM(llmtest.Completion{Content: `\boxed{` + answer + `}`, PromptTokens: 200, CompletionTokens: 100})
		}
	}
	return llmtest.BadRequest("unknown problem")
}

// TestDrainedBaselineSendsNoQueuedCall: with the endpoint's concurrency
// (1) below the baseline's, the calls queued for the endpoint's slot when
// the baseline is asked to stop are not sent — a stopping baseline once
// sent them one after another — and the next baseline asks each of them
// once.
func TestDrainedBaselineSendsNoQueuedCall(t *testing.T) {
	s := newQuoteStudy(t)
	aime := studyModel(s)
	stop, stopWith := context.WithCancelCause(context.Background())
	defer stopWith(nil)
	var solves, late atomic.Int32
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(i int, r llmtest.Recorded) llmtest.Reply {
		if fakemodel.Parse(r).IsProbe() {
			return aime.reply(i, r)
		}
		if stop.Err() != nil {
			late.Add(1)
		}
		if solves.Add(1) == 3 {
			stopWith(errors.New("interrupt signal received"))
		}
		reply := rightAnswer(aime, r)
		reply.Delay = 50 * time.Millisecond // the others queue meanwhile
		return reply
	}))
	s.write(t, "endpoints.json", fmt.Sprintf(`{"q": {"base_url": "%s", "model": "qwen3-8b", "mode": "extended", "family": "qwen",
  "max_attempts": 1, "timeout": "5s", "max_output_tokens": 4000, "concurrency": 1}}`, srv.URL()))
	env, _, logs := testEnv(nil)
	env.Stop = stop
	err := Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env)
	if err == nil || !strings.Contains(err.Error(), "stopped: interrupt signal received; the model calls in flight were answered and stored") {
		t.Fatalf("baseline: %v, want it drained\n%s", err, logs)
	}
	if n := late.Load(); n != 0 {
		t.Errorf("%d solve calls reached the model after the stop, want 0 (the endpoint's one slot was taken by the call in flight)", n)
	}
	asked := int(solves.Load())
	env, _, logs = testEnv(nil)
	if err := Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env); err != nil {
		t.Fatalf("resumed baseline: %v\n%s", err, logs)
	}
	if again := int(solves.Load()) - asked; again != len(s.probs)-asked {
		t.Errorf("the resumed baseline asked %d calls, want the %d not asked before", again, len(s.probs)-asked)
	}
}

// TestBaselineRefusesUngradableProblems: problems whose grading data no
// grader can use stop triage baseline before any model call, each named;
// they passed the preflight, which then made the endpoints' check calls,
// and the Executor refused them solver after solver.
func TestBaselineRefusesUngradableProblems(t *testing.T) {
	s := newQuoteStudy(t)
	raw, err := os.ReadFile(filepath.Join(s.dir, "aime.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	s.write(t, "aime.jsonl", string(raw)+`{"id":"nokind","dataset":"aime","text":"What is 6 × 7?","grading":{"answer":"42"}}`+"\n")
	env, _, logs := testEnv(map[string]string{"Q_KEY": "k"})
	err = Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env)
	if err == nil || !strings.Contains(err.Error(), "the baseline cannot start") || !strings.Contains(err.Error(), "problem aime/nokind: grading.kind: required") {
		t.Fatalf("baseline: %v, want the preflight naming the problem\n%s", err, logs)
	}
	if n := s.srv.Count(); n != 0 {
		t.Errorf("the model was called %d times before the refusal", n)
	}
}
