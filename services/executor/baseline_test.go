package executor_test

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/testing/protocmp"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/sandbox"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
	"github.com/triage-eval/triage/services/executor"
)

// newBaselineClient serves an Executor that runs baselines against srv;
// each of with may set more of its Baseline.
func newBaselineClient(t *testing.T, srv *llmtest.Server, g *grading.Grader, with ...func(*executor.Baseline)) (triagev1.ExecutorServiceClient, groundtruth.Store) {
	t.Helper()
	st, err := groundtruth.Open(context.Background(), filepath.Join(t.TempDir(), "gt.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := func() time.Time { return fixedNow }
	b := &executor.Baseline{
		Endpoints: map[string]llm.Endpoint{"q": {Name: "q", BaseURL: srv.URL(), Model: "qwen3-32b", Mode: "extended", MaxAttempts: 1, Timeout: 5 * time.Second}},
		Clients:   llm.NewClients(llm.WithClock(now)),
		Solver:    solving.New(g, now),
	}
	for _, f := range with {
		f(b)
	}
	svc := server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(st, now, executor.WithBaseline(b))}
	return triagev1.NewExecutorServiceClient(servertest.Start(t, nil, svc)), st
}

func mathProblem(id, answer string) *triagev1.Problem {
	return &triagev1.Problem{Id: id, Dataset: "aime", Text: "Compute problem " + id + ".", GradingJson: `{"kind":"math","answer":"` + answer + `","integer":true}`}
}

// collect reads a whole baseline stream.
func collect(t *testing.T, c triagev1.ExecutorServiceClient, req *triagev1.RunBaselineRequest) (*triagev1.BaselineStarted, []*triagev1.BaselineItem, *triagev1.BaselineSummary, error) {
	t.Helper()
	stream, err := c.RunBaseline(context.Background(), req)
	if err != nil {
		return nil, nil, nil, err
	}
	var (
		started *triagev1.BaselineStarted
		items   []*triagev1.BaselineItem
		sum     *triagev1.BaselineSummary
	)
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return started, items, sum, nil
		}
		if err != nil {
			return started, items, sum, err
		}
		switch ev := msg.GetEvent().(type) {
		case *triagev1.RunBaselineResponse_Started:
			if started != nil || len(items) > 0 {
				t.Error("started is not the first event")
			}
			started = ev.Started
		case *triagev1.RunBaselineResponse_Item:
			items = append(items, ev.Item)
		case *triagev1.RunBaselineResponse_Summary:
			sum = ev.Summary
		}
	}
}

func TestRunBaselineStreamsAndStores(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(fakemodel.ByPrompt(map[string]llmtest.Reply{
		"problem p1.": llmtest.OpenAI(llmtest.Completion{Content: "so \\boxed{42}", CompletionTokens: 300, ReasoningTokens: 200}),
		"problem p2.": llmtest.OpenAI(llmtest.Completion{Content: "Answer: 41", CompletionTokens: 120}),
	}, llmtest.OpenAI(llmtest.Completion{Content: "I do not know.", CompletionTokens: 7}))))
	c, st := newBaselineClient(t, srv, grading.New(nil, nil))
	req := &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: []*triagev1.Problem{mathProblem("p1", "42"), mathProblem("p2", "42"), mathProblem("p3", "7")}}
	started, items, sum, err := collect(t, c, req)
	if err != nil {
		t.Fatal(err)
	}
	if started.GetTotal() != 3 || started.GetPending() != 3 || len(items) != 3 {
		t.Fatalf("started %v, %d items", started, len(items))
	}
	if sum.GetSolved() != 3 || sum.GetGradeable() != 3 || sum.GetCorrect() != 1 {
		t.Errorf("summary %v", sum)
	}
	want := map[string]struct {
		outcome triagev1.GradeOutcome
		cost    int64
		answer  string
	}{
		"p1": {triagev1.GradeOutcome_GRADE_OUTCOME_CORRECT, 300, "42"},
		"p2": {triagev1.GradeOutcome_GRADE_OUTCOME_INCORRECT, 120, "41"},
		"p3": {triagev1.GradeOutcome_GRADE_OUTCOME_NO_ANSWER, 7, ""},
	}
	for _, it := range items {
		id := it.GetRecord().GetProblemId()
		w := want[id]
		if it.GetOutcome() != w.outcome || it.GetRecord().GetCost() != w.cost || it.GetExtractedAnswer() != w.answer || it.GetPromptTemplate() != "solver/math" || len(it.GetPromptSha256()) != 64 {
			t.Errorf("%s: %v", id, it)
		}
		// Each reported item is already stored.
		got, err := st.Get(context.Background(), groundtruth.Solver{Model: "qwen3-32b", Mode: "extended"}, "aime", []string{id})
		if err != nil || got[id].Cost != w.cost {
			t.Errorf("%s stored as %+v, %v", id, got[id], err)
		}
	}
	// A second call skips what is stored and calls nothing.
	before := srv.Count()
	started, items, _, err = collect(t, c, req)
	if err != nil || started.GetSkipped() != 3 || len(items) != 0 || srv.Count() != before {
		t.Errorf("second call: started %v, %d items, %d calls, %v", started, len(items), srv.Count()-before, err)
	}
	// rerun re-solves everything.
	req.Rerun = true
	if _, items, _, err = collect(t, c, req); err != nil || len(items) != 3 {
		t.Errorf("rerun: %d items, %v", len(items), err)
	}
}

// TestRunBaselineUnsolvableScoresZero checks SPEC §1: an unsolvable item's
// answer that the grader accepts is stored as not correct, with the
// grader's verdict kept as a lucky guess and counted in the summary.
func TestRunBaselineUnsolvableScoresZero(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply {
		return llmtest.OpenAI(llmtest.Completion{Content: "\\boxed{42}", CompletionTokens: 50})
	}))
	c, st := newBaselineClient(t, srv, grading.New(nil, nil))
	guessed := mathProblem("u1", "42")
	guessed.Unsolvable = true
	missed := mathProblem("u2", "7")
	missed.Unsolvable = true
	_, items, sum, err := collect(t, c, &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: []*triagev1.Problem{guessed, missed, mathProblem("p1", "42")}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.GetGradeable() != 3 || sum.GetCorrect() != 1 || sum.GetLuckyGuesses() != 1 {
		t.Errorf("summary %v: want 3 gradeable, 1 correct (p1), 1 lucky guess (u1)", sum)
	}
	got, err := st.Get(context.Background(), groundtruth.Solver{Model: "qwen3-32b", Mode: "extended"}, "aime", []string{"u1", "u2", "p1"})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string][2]bool{"u1": {false, true}, "u2": {false, false}, "p1": {true, false}} {
		if r := got[id]; r.Correct != want[0] || r.LuckyGuess != want[1] || !r.Gradeable {
			t.Errorf("%s stored correct=%v lucky_guess=%v gradeable=%v; want correct=%v lucky_guess=%v", id, r.Correct, r.LuckyGuess, r.Gradeable, want[0], want[1])
		}
	}
	for _, it := range items {
		if it.GetRecord().GetProblemId() == "u1" && (it.GetOutcome() != triagev1.GradeOutcome_GRADE_OUTCOME_CORRECT || !it.GetRecord().GetLuckyGuess() || it.GetRecord().GetCorrect()) {
			t.Errorf("u1 item %v: the grader's verdict (correct) is reported, the record is a lucky guess", it)
		}
	}
}

func TestRunBaselineFailuresAreStoredNotGradeable(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return llmtest.ServerError() }))
	c, st := newBaselineClient(t, srv, grading.New(nil, nil))
	_, items, sum, err := collect(t, c, &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: []*triagev1.Problem{mathProblem("p1", "1")}})
	if err != nil || len(items) != 1 || sum.GetNotGradeable() != 1 || sum.GetFailedCalls() != 1 {
		t.Fatalf("items %v, summary %v, %v", items, sum, err)
	}
	if it := items[0]; it.GetOutcome() != triagev1.GradeOutcome_GRADE_OUTCOME_NOT_GRADEABLE || !strings.Contains(it.GetRecord().GetError(), "500") {
		t.Errorf("item %v", it)
	}
	got, _ := st.Get(context.Background(), groundtruth.Solver{Model: "qwen3-32b", Mode: "extended"}, "aime", []string{"p1"})
	if r := got["p1"]; r.Gradeable || r.Error == "" {
		t.Errorf("stored %+v", r)
	}
}

func TestRunBaselineValidation(t *testing.T) {
	srv := llmtest.NewServer(t)
	c, _ := newBaselineClient(t, srv, grading.New(nil, nil))
	good := func() *triagev1.RunBaselineRequest {
		return &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: []*triagev1.Problem{mathProblem("p1", "1")}}
	}
	tests := []struct {
		name   string
		mutate func(*triagev1.RunBaselineRequest)
		fields string
	}{
		{"no solver", func(r *triagev1.RunBaselineRequest) { r.Solver = nil }, "solver.model solver.mode"},
		{"unknown endpoint", func(r *triagev1.RunBaselineRequest) { r.Endpoint = "nope" }, "endpoint"},
		{"mode mismatch", func(r *triagev1.RunBaselineRequest) {
			r.Solver = &triagev1.Solver{Model: "m", Mode: triagev1.SolverMode_SOLVER_MODE_STANDARD}
		}, "endpoint"},
		{"no problems", func(r *triagev1.RunBaselineRequest) { r.Problems = nil }, "problems"},
		{"bad concurrency", func(r *triagev1.RunBaselineRequest) { r.Concurrency = -1 }, "concurrency"},
		{"negative samples", func(r *triagev1.RunBaselineRequest) { r.Samples = -1 }, "samples"},
		{"too many samples", func(r *triagev1.RunBaselineRequest) { r.Samples = solving.MaxSamples + 1 }, "samples"},
		{"huge samples", func(r *triagev1.RunBaselineRequest) { r.Samples = 1 << 30 }, "samples"},
		{"bad problem", func(r *triagev1.RunBaselineRequest) {
			r.Problems = append(r.Problems, &triagev1.Problem{Text: " ", GradingJson: `{"kind":"choice","answer":"b"}`}, mathProblem("p1", "2"))
		}, "problems[1].id problems[1].dataset problems[1].text problems[1].grading_json problems[2].id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := good()
			tt.mutate(req)
			_, _, _, err := collect(t, c, req)
			var fields []string
			for _, fv := range grpcerr.FieldViolations(err) {
				fields = append(fields, fv.GetField())
			}
			if status.Code(err) != codes.InvalidArgument || strings.Join(fields, " ") != tt.fields {
				t.Errorf("err = %v, fields %v; want InvalidArgument on %s", err, fields, tt.fields)
			}
		})
	}
	if srv.Count() != 0 {
		t.Errorf("invalid requests made %d model calls", srv.Count())
	}
}

func TestRunBaselinePreconditions(t *testing.T) {
	c, _ := newClient(t, true)
	_, _, _, err := collect(t, c, &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: []*triagev1.Problem{mathProblem("p1", "1")}})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "--endpoints") {
		t.Errorf("without endpoints: %v", err)
	}
	if _, err := c.CheckEndpoints(context.Background(), &triagev1.CheckEndpointsRequest{Names: []string{"q"}}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("CheckEndpoints without endpoints: %v", err)
	}
}

// TestRunBaselineCountsFailedCalls: a summary tells failed model calls
// from answers that could not be graded.
func TestRunBaselineCountsFailedCalls(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(_ int, r llmtest.Recorded) llmtest.Reply {
		if strings.Contains(string(r.Body), "problem p1.") {
			return llmtest.ServerError()
		}
		return llmtest.OpenAI(llmtest.Completion{Content: "\\boxed{1}", CompletionTokens: 5})
	}))
	c, _ := newBaselineClient(t, srv, grading.New(nil, nil))
	code := &triagev1.Problem{Id: "c1", Dataset: "lcb", Text: "Compute problem c1.", GradingJson: `{"kind":"code","code":{"testtype":"stdin","public_tests":[{"input":"","output":"1"}]}}`}
	_, _, sum, err := collect(t, c, &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: []*triagev1.Problem{mathProblem("p1", "1"), mathProblem("p2", "1"), code}})
	if err != nil {
		t.Fatal(err)
	}
	// p1's call failed; c1's answer cannot be graded (no sandbox); p2 is correct.
	if sum.GetSolved() != 3 || sum.GetNotGradeable() != 2 || sum.GetFailedCalls() != 1 || sum.GetCorrect() != 1 {
		t.Errorf("summary %v, want 3 solved, 2 not gradeable of which 1 failed call, 1 correct", sum)
	}
}

// TestCheckEndpoints: each name is checked with one call; an unknown name
// is reported unconfigured and costs nothing; a failing endpoint comes back
// with the provider's status and message, not its address.
func TestCheckEndpoints(t *testing.T) {
	live := llmtest.NewServer(t)
	refusing := llmtest.NewServer(t, llmtest.WithModels("another-model"))
	st, err := groundtruth.Open(context.Background(), filepath.Join(t.TempDir(), "gt.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := func() time.Time { return fixedNow }
	b := &executor.Baseline{
		Endpoints: map[string]llm.Endpoint{
			"live":     {Name: "live", BaseURL: live.URL(), Model: "qwen3-32b", Mode: "extended", MaxAttempts: 1},
			"refusing": {Name: "refusing", BaseURL: refusing.URL(), Model: "qwen3-32b", Mode: "standard", MaxAttempts: 1},
		},
		Clients: llm.NewClients(llm.WithClock(now)),
		Solver:  solving.New(grading.New(nil, nil), now),
	}
	svc := server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(st, now, executor.WithBaseline(b))}
	c := triagev1.NewExecutorServiceClient(servertest.Start(t, nil, svc))

	resp, err := c.CheckEndpoints(context.Background(), &triagev1.CheckEndpointsRequest{Names: []string{"refusing", "nope", "live"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []*triagev1.EndpointCheck{
		{Name: "refusing", Configured: true, Model: "qwen3-32b", Mode: triagev1.SolverMode_SOLVER_MODE_STANDARD,
			Reason: "HTTP 404 Not Found (model_not_found): The model `qwen3-32b` does not exist or you do not have access to it."},
		{Name: "nope"},
		{Name: "live", Configured: true, Model: "qwen3-32b", Mode: triagev1.SolverMode_SOLVER_MODE_EXTENDED, Answered: true},
	}
	if diff := cmp.Diff(want, resp.GetChecks(), protocmp.Transform()); diff != "" {
		t.Errorf("checks (-want +got):\n%s", diff)
	}
	if got := strings.Join(resp.GetConfigured(), " "); got != "live refusing" {
		t.Errorf("configured = %q", got)
	}
	if live.Count() != 1 || refusing.Count() != 1 {
		t.Errorf("the endpoints saw %d and %d calls, want one each", live.Count(), refusing.Count())
	}
	if _, err := c.CheckEndpoints(context.Background(), &triagev1.CheckEndpointsRequest{Names: []string{"live", "live"}}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("a repeated name: %v, want InvalidArgument", err)
	}
}

func TestRunBaselineGradesCodeInTheSandbox(t *testing.T) {
	sb, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatalf("sandbox: %v (CI installs python3; see .ci/run)", err)
	}
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(_ int, r llmtest.Recorded) llmtest.Reply {
		program := "a, b = map(int, input().split())\nprint(a + b)"
		if strings.Contains(string(r.Body), "wrong") {
			program = "a, b = map(int, input().split())\nprint(a - b)"
		}
		return llmtest.VLLM(llmtest.Completion{Reasoning: "```python\nprint(42)\n```", Content: "Here:\n```python\n" + program + "\n```", CompletionTokens: 90})
	}))
	c, _ := newBaselineClient(t, srv, grading.New(sb, nil))
	spec := `{"kind":"code","code":{"testtype":"stdin","public_tests":[{"input":"1 2\n","output":"3\n"},{"input":"5 7\n","output":"12\n"}]}}`
	_, items, _, err := collect(t, c, &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q", Problems: []*triagev1.Problem{
		{Id: "sum", Dataset: "lcb", Text: "Read a and b; print a+b.", GradingJson: spec},
		{Id: "sum-wrong", Dataset: "lcb", Text: "Read a and b; print a+b (wrong).", GradingJson: spec},
	}})
	if err != nil || len(items) != 2 {
		t.Fatalf("%d items, %v", len(items), err)
	}
	for _, it := range items {
		want := triagev1.GradeOutcome_GRADE_OUTCOME_CORRECT
		if it.GetRecord().GetProblemId() == "sum-wrong" {
			want = triagev1.GradeOutcome_GRADE_OUTCOME_WRONG_ANSWER
		}
		if it.GetOutcome() != want || !strings.Contains(it.GetExtractedAnswer(), "input().split()") {
			t.Errorf("%s: outcome %v (want %v), detail %q, program %q", it.GetRecord().GetProblemId(), it.GetOutcome(), want, it.GetGradeDetail(), it.GetExtractedAnswer())
		}
	}
}

// TestRunBaselineCostRules runs the whole path, test server → gateway →
// baseline → store, for each provider usage shape: the stored cost is the
// SPEC §1 cost and names its rule, in the stream, in the store and in
// ListGroundTruth. p3's provider counts reasoning outside completion and
// total (issue 21: 86 was stored instead of 7,953).
func TestRunBaselineCostRules(t *testing.T) {
	shapes := map[string]llmtest.Reply{
		"p1": llmtest.OpenAI(llmtest.Completion{Content: "\\boxed{1}", PromptTokens: 40, CompletionTokens: 300, ReasoningTokens: 200}),
		"p2": llmtest.Ollama(llmtest.Completion{Content: "\\boxed{1}", PromptTokens: 100, CompletionTokens: 10, TotalTokens: 610}),
		"p3": llmtest.ReasoningApart(llmtest.Completion{Content: "\\boxed{1}", PromptTokens: 120, CompletionTokens: 86, ReasoningTokens: 7867}),
		"p4": llmtest.ServerError(),
		"p5": llmtest.DeepSeek(llmtest.Completion{Content: "\\boxed{1}", Reasoning: "1", PromptTokens: 12, CompletionTokens: 90, ReasoningTokens: 80}),
	}
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(_ int, r llmtest.Recorded) llmtest.Reply {
		for id, reply := range shapes {
			if strings.Contains(string(r.Body), "problem "+id+".") {
				return reply
			}
		}
		return llmtest.BadRequest("unknown problem")
	}))
	c, st := newBaselineClient(t, srv, grading.New(nil, nil))
	req := &triagev1.RunBaselineRequest{Solver: qwen, Endpoint: "q"}
	for _, id := range []string{"p1", "p2", "p3", "p4", "p5"} {
		req.Problems = append(req.Problems, mathProblem(id, "1"))
	}
	_, items, sum, err := collect(t, c, req)
	if err != nil || len(items) != 5 || sum.GetGradeable() != 4 {
		t.Fatalf("%d items, summary %v, %v", len(items), sum, err)
	}
	want := map[string]struct {
		cost  int64
		rule  costrule.Rule
		proto triagev1.CostRule
	}{
		"p1": {300, costrule.Completion, triagev1.CostRule_COST_RULE_COMPLETION},
		"p2": {510, costrule.TotalMinusPrompt, triagev1.CostRule_COST_RULE_TOTAL_MINUS_PROMPT},
		"p3": {7953, costrule.CompletionPlusReasoning, triagev1.CostRule_COST_RULE_COMPLETION_PLUS_REASONING},
		"p4": {0, costrule.None, triagev1.CostRule_COST_RULE_NONE},
		"p5": {90, costrule.Completion, triagev1.CostRule_COST_RULE_COMPLETION},
	}
	for _, it := range items {
		r := it.GetRecord()
		if w := want[r.GetProblemId()]; r.GetCost() != w.cost || r.GetCostRule() != w.proto {
			t.Errorf("streamed %s: cost %d by %v; want %d by %v", r.GetProblemId(), r.GetCost(), r.GetCostRule(), w.cost, w.proto)
		}
	}
	stored, err := st.Get(context.Background(), groundtruth.Solver{Model: "qwen3-32b", Mode: "extended"}, "aime", []string{"p1", "p2", "p3", "p4", "p5"})
	if err != nil {
		t.Fatal(err)
	}
	for id, w := range want {
		if r := stored[id]; r.Cost != w.cost || r.CostRule != w.rule || r.Gradeable != (id != "p4") {
			t.Errorf("stored %s: %+v; want cost %d by %s", id, r, w.cost, w.rule)
		}
	}
	page, err := c.ListGroundTruth(context.Background(), &triagev1.ListGroundTruthRequest{Solver: qwen, Dataset: "aime"})
	if err != nil || len(page.GetRecords()) != 5 {
		t.Fatalf("list: %v, %v", page, err)
	}
	for _, r := range page.GetRecords() {
		if w := want[r.GetProblemId()]; r.GetCost() != w.cost || r.GetCostRule() != w.proto {
			t.Errorf("listed %s: cost %d by %v; want %d by %v", r.GetProblemId(), r.GetCost(), r.GetCostRule(), w.cost, w.proto)
		}
	}
}
