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
