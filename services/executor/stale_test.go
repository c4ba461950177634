package executor_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
)

// TestRunBaselineSolvesStaleProblemsAgain: a stored record carries the
// digest of the problem it measured; once the problem's answer key or
// text changes, the baseline solves it again (counted stale) even without
// rerun, and leaves alone the unchanged problems and the records that do
// not say what they measured.
func TestRunBaselineSolvesStaleProblemsAgain(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply {
		return llmtest.OpenAI(llmtest.Completion{Content: "so \\boxed{42}", CompletionTokens: 300})
	}))
	c, st := newBaselineClient(t, srv, grading.New(nil, nil))
	ctx := context.Background()
	solver := groundtruth.Solver{Model: "qwen3-32b", Mode: "extended"}
	req := &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: []*triagev1.Problem{mathProblem("p1", "42"), mathProblem("p2", "42")}}
	if _, items, _, err := collect(t, c, req); err != nil || len(items) != 2 {
		t.Fatalf("first call: %d items, %v", len(items), err)
	}
	stored, err := st.Get(ctx, solver, "aime", []string{"p1", "p2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range req.GetProblems() {
		want := problems.Digest(problems.Problem{Text: p.GetText(), Grading: json.RawMessage(p.GetGradingJson())})
		if got := stored[p.GetId()].ProblemSHA256; got != want {
			t.Errorf("%s stored with problem digest %q, want %q", p.GetId(), got, want)
		}
	}
	// p3's record was imported without a digest: it is kept whatever p3
	// says now.
	imported := groundtruth.Record{Key: groundtruth.Key{Solver: solver, Dataset: "aime", ProblemID: "p3"}, Cost: 10, CostRule: costrule.Completion, Gradeable: true, MeasuredAt: time.Now()}
	if _, err := st.Import(ctx, func(yield func(groundtruth.Record, error) bool) { yield(imported, nil) }); err != nil {
		t.Fatal(err)
	}

	// p1's answer key changed: 42 is now wrong.
	req.Problems = []*triagev1.Problem{mathProblem("p1", "43"), mathProblem("p2", "42"), mathProblem("p3", "9")}
	for _, keep := range []bool{false, true} {
		req.KeepUngradeable = keep
		before := srv.Count()
		started, items, _, err := collect(t, c, req)
		if err != nil {
			t.Fatal(err)
		}
		if started.GetStale() != 1 || started.GetPending() != 1 || started.GetSkipped() != 2 || len(items) != 1 || items[0].GetRecord().GetProblemId() != "p1" || srv.Count()-before != 1 {
			t.Fatalf("keep_ungradeable=%v: started %v, %d items, %d calls; want p1 alone solved again as stale", keep, started, len(items), srv.Count()-before)
		}
		// The first pass stored p1 afresh: the second finds nothing stale.
		if !keep {
			got, err := st.Get(ctx, solver, "aime", []string{"p1"})
			if err != nil || got["p1"].Correct || got["p1"].ProblemSHA256 != problems.Digest(problems.Problem{Text: "Compute problem p1.", Grading: json.RawMessage(`{"kind":"math","answer":"43","integer":true}`)}) {
				t.Fatalf("p1 stored as %+v, %v; want graded against the new answer key, with its digest", got["p1"], err)
			}
			req.Problems[0] = mathProblem("p1", "44") // stale again for the next pass
		}
	}
}
