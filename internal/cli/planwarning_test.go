package cli

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// TestRunWarnsOfPlansItCouldNotScore: a model that answers some plans in
// prose and some with unknown ids only makes a run that says so at its end
// — how many of its plans were unparseable (left out of every mean) and
// how many had every step dropped (scored as empty plans) — where it once
// said only "run complete, 0 planner errors".
func TestRunWarnsOfPlansItCouldNotScore(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(n int, r llmtest.Recorded) llmtest.Reply {
		ids := fakemodel.PlannerIDs(fakemodel.Parse(r).Prompt())
		switch n % 4 {
		case 0:
			return llmtest.OK("I would rather not plan this pool.")
		case 1:
			return llmtest.OK(fakemodel.Plan([]string{"no-such-id", "nor-this"}, 700))
		}
		return llmtest.OK(fakemodel.Plan(fakemodel.FirstHalf(ids), 700))
	}))
	config := writeGrid(t, t.TempDir(), strings.TrimSuffix(srv.URL(), "/v1"))
	env, _, logs := testEnv(nil)
	if err := Run(context.Background(), []string{"run", "--progress", "off", config}, env); err != nil {
		t.Fatalf("run: %v\n%s", err, logs)
	}
	m := regexp.MustCompile(`warning: of the (\d+) plans the model answered this run, (\d+) unparseable \(no JSON plan in the answer\), left out of every mean, and (\d+) with every step dropped by normalization`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no warning of the plans that could not be scored:\n%s", logs)
	}
	if m[1] != "96" || m[2] == "0" || m[3] == "0" {
		t.Errorf("warning counts %s answered, %s unparseable, %s emptied; want 96 answered and some of each:\n%s", m[1], m[2], m[3], logs)
	}
}

// TestRunOfNoScoreablePlanFails: a run of which every plan the model
// answered is unparseable measured nothing of the model, and fails as a
// baseline with nothing gradeable does (it exited 0 with a warning); the
// cells are stored all the same, and a second run, with nothing left to
// ask, succeeds.
func TestRunOfNoScoreablePlanFails(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply {
		return llmtest.OK("I would rather not plan this pool.")
	}))
	config := writeGrid(t, t.TempDir(), strings.TrimSuffix(srv.URL(), "/v1"))
	env, _, logs := testEnv(nil)
	err := Run(context.Background(), []string{"run", "--progress", "off", config}, env)
	if err == nil || !strings.Contains(err.Error(), "none of the 96 plans the model answered this run could be scored: every one was unparseable") {
		t.Fatalf("run: %v, want it to fail, no plan scoreable\n%s", err, logs)
	}
	env, _, logs = testEnv(nil)
	if err := Run(context.Background(), []string{"run", "--progress", "off", config}, env); err != nil || !strings.Contains(logs.String(), "run complete") {
		t.Errorf("second run: %v, want it complete, its cells stored before\n%s", err, logs)
	}
}

// TestRunRetryingCellsOfAMeasuredRunDoesNotFail: a run that retries a
// cell of a run measured before, and gets prose for it, found the rest of
// the model's plans stored: it warns, and does not fail.
func TestRunRetryingCellsOfAMeasuredRunDoesNotFail(t *testing.T) {
	var prose atomic.Bool
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(n int, r llmtest.Recorded) llmtest.Reply {
		switch {
		case prose.Load():
			return llmtest.OK("I would rather not plan this pool.")
		case n == 0:
			return llmtest.Reply{Status: http.StatusBadRequest, Body: []byte(`{"error": {"message": "bad request", "type": "invalid_request_error"}}`)}
		}
		return llmtest.OK(fakemodel.Plan(fakemodel.FirstHalf(fakemodel.PlannerIDs(fakemodel.Parse(r).Prompt())), 700))
	}))
	config := writeGrid(t, t.TempDir(), strings.TrimSuffix(srv.URL(), "/v1"))
	env, _, logs := testEnv(nil)
	if err := Run(context.Background(), []string{"run", "--progress", "off", config}, env); err != nil {
		t.Fatalf("first run: %v\n%s", err, logs)
	}
	prose.Store(true)
	env, _, logs = testEnv(nil)
	err := Run(context.Background(), []string{"run", "--progress", "off", config}, env)
	if err != nil || !strings.Contains(logs.String(), "of the 1 plans the model answered this run, 1 unparseable") {
		t.Errorf("retrying run: %v, want it to warn of its one unparseable plan and complete\n%s", err, logs)
	}
}
