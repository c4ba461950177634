package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// TestStoppedBaselineSaysWhatWasDone: a baseline stopped (SIGINT) after a
// few answers says how many of its problems were done, not the solvers'
// summaries, which come only at the end of their streams (a stopped one
// printed "0 already stored; solved 0").
func TestStoppedBaselineSaysWhatWasDone(t *testing.T) {
	s := newQuoteStudy(t)
	aime := &aimeModel{answers: map[string]string{}, order: map[string]int{}, solves: map[string]int{}}
	for text, a := range quoteAnswers(s) {
		aime.answers[text], aime.order[text] = a[0], len(aime.order)+1
	}
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
	aime := &aimeModel{answers: map[string]string{}, order: map[string]int{}, solves: map[string]int{}}
	for text, a := range quoteAnswers(s) {
		aime.answers[text], aime.order[text] = a[0], len(aime.order)+1
	}
	stop, stopWith := context.WithCancelCause(context.Background())
	defer stopWith(nil)
	var solves atomic.Int32
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(i int, r llmtest.Recorded) llmtest.Reply {
		if !fakemodel.Parse(r).IsProbe() && solves.Add(1) == 6 {
			stopWith(errors.New("interrupt signal received"))
		}
		return aime.reply(i, r)
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
