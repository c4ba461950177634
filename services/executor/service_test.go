package executor_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/services/executor"
)

var (
	fixedNow = time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	qwen     = &triagev1.Solver{Model: "qwen3-32b", Mode: triagev1.SolverMode_SOLVER_MODE_EXTENDED}
)

// newClient serves an Executor over a fresh SQLite store (or none).
func newClient(t *testing.T, withStore bool) (triagev1.ExecutorServiceClient, groundtruth.Store) {
	t.Helper()
	var st groundtruth.Store
	if withStore {
		var err error
		st, err = groundtruth.Open(context.Background(), filepath.Join(t.TempDir(), "gt.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
	}
	svc := server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(st, func() time.Time { return fixedNow })}
	return triagev1.NewExecutorServiceClient(servertest.Start(t, nil, svc)), st
}

func record(dataset, id string, cost int64, correct, gradeable bool) *triagev1.GroundTruthRecord {
	return &triagev1.GroundTruthRecord{Solver: qwen, Dataset: dataset, ProblemId: id, Cost: cost, Correct: correct, Gradeable: gradeable}
}

// importRecords streams records in batches of batch.
func importRecords(t *testing.T, c triagev1.ExecutorServiceClient, batch int, records ...*triagev1.GroundTruthRecord) (*triagev1.ImportGroundTruthResponse, error) {
	t.Helper()
	stream, err := c.ImportGroundTruth(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < len(records); start += batch {
		end := min(start+batch, len(records))
		if err := stream.Send(&triagev1.ImportGroundTruthRequest{Records: records[start:end]}); err != nil {
			break // the server ended the stream; CloseAndRecv says why
		}
	}
	return stream.CloseAndRecv()
}

func inline(items ...*triagev1.GroundTruthItem) *triagev1.ExecutePlanRequest_Inline {
	return &triagev1.ExecutePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: items}}
}

func plan(steps ...any) []*triagev1.PlanStep {
	var out []*triagev1.PlanStep
	for i := 0; i < len(steps); i += 2 {
		out = append(out, &triagev1.PlanStep{Id: steps[i].(string), Tokens: int64(steps[i+1].(int))})
	}
	return out
}

func TestExecuteInline(t *testing.T) {
	c, _ := newClient(t, false)
	resp, err := c.ExecutePlan(context.Background(), &triagev1.ExecutePlanRequest{
		Pool: inline(
			&triagev1.GroundTruthItem{Id: "a", Cost: 100, Correct: true},
			&triagev1.GroundTruthItem{Id: "b", Cost: 300, Correct: true},
			&triagev1.GroundTruthItem{Id: "c", Cost: 200, Correct: false},
		),
		Budget: &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 0.5}}, // ⌊0.5·600⌋ = 300
		Plan:   plan("a", 150, "zz", 10, "b", 100, "a", 5, "c", 0),
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetBudget() != 300 || resp.GetPoolSize() != 3 || resp.GetTotalCost() != 600 {
		t.Errorf("budget/pool/total = %d/%d/%d", resp.GetBudget(), resp.GetPoolSize(), resp.GetTotalCost())
	}
	if resp.GetPlannedTokens() != 250 || resp.GetOverBudget() {
		t.Errorf("planned %d over %v, want 250 false", resp.GetPlannedTokens(), resp.GetOverBudget())
	}
	var dropped []string
	for _, d := range resp.GetDroppedSteps() {
		dropped = append(dropped, fmt.Sprintf("%d:%s:%s", d.GetIndex(), d.GetId(), d.GetReason()))
	}
	wantDropped := []string{"1:zz:PLAN_DROP_REASON_UNKNOWN_ID", "3:a:PLAN_DROP_REASON_DUPLICATE", "4:c:PLAN_DROP_REASON_ZERO"}
	if !slices.Equal(dropped, wantDropped) {
		t.Errorf("dropped = %v, want %v", dropped, wantDropped)
	}
	if len(resp.GetResults()) != 2 {
		t.Fatalf("%d results, want U and E", len(resp.GetResults()))
	}
	u, e := resp.GetResults()[0], resp.GetResults()[1]
	// U: a (100) scores, b (300) > 200 left: stop.
	if u.GetRegime() != triagev1.Regime_REGIME_ADVISORY || u.GetValue() != 1 || u.GetRemainingBudget() != 200 ||
		u.GetTrace()[1].GetOutcome() != triagev1.TraceOutcome_TRACE_OUTCOME_STOPPED {
		t.Errorf("U = %v", u)
	}
	// E: a gets 150 ≥ 100: scores; b gets 100 < 300: truncated, 100 deducted.
	if e.GetRegime() != triagev1.Regime_REGIME_ENFORCED || e.GetValue() != 1 || e.GetRemainingBudget() != 50 ||
		e.GetTrace()[1].GetOutcome() != triagev1.TraceOutcome_TRACE_OUTCOME_TRUNCATED {
		t.Errorf("E = %v", e)
	}
	lean := proto.Clone(resp).(*triagev1.ExecutePlanResponse)
	for _, r := range lean.GetResults() {
		r.Trace = nil
	}
	noTrace, err := c.ExecutePlan(context.Background(), &triagev1.ExecutePlanRequest{
		Pool: inline(
			&triagev1.GroundTruthItem{Id: "a", Cost: 100, Correct: true},
			&triagev1.GroundTruthItem{Id: "b", Cost: 300, Correct: true},
			&triagev1.GroundTruthItem{Id: "c", Cost: 200, Correct: false},
		),
		Budget:    &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 0.5}},
		Plan:      plan("a", 150, "zz", 10, "b", 100, "a", 5, "c", 0),
		OmitTrace: true,
	})
	if err != nil || !proto.Equal(noTrace, lean) {
		t.Errorf("omit_trace: %v, %v; want the same response without traces", noTrace, err)
	}
	only, err := c.ExecutePlan(context.Background(), &triagev1.ExecutePlanRequest{
		Pool:    inline(&triagev1.GroundTruthItem{Id: "a", Cost: 100, Correct: true}),
		Budget:  &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: 50}},
		Plan:    plan("a", 80),
		Regimes: []triagev1.Regime{triagev1.Regime_REGIME_ENFORCED},
	})
	if err != nil || len(only.GetResults()) != 1 || !only.GetOverBudget() || only.GetResults()[0].GetTrace()[0].GetOutcome() != triagev1.TraceOutcome_TRACE_OUTCOME_STOPPED {
		t.Errorf("E only, over budget: %v, %v", only, err)
	}
}

func TestExecuteStored(t *testing.T) {
	c, _ := newClient(t, true)
	if _, err := importRecords(t, c, 2,
		record("aime", "p1", 100, true, true),
		record("aime", "p2", 200, false, true),
		record("aime", "p3", 0, false, false), // the baseline call failed
		record("aime", "p4", 400, true, true),
	); err != nil {
		t.Fatal(err)
	}
	req := func(solver *triagev1.Solver, ids ...string) *triagev1.ExecutePlanRequest {
		return &triagev1.ExecutePlanRequest{
			Pool:   &triagev1.ExecutePlanRequest_Stored{Stored: &triagev1.StoredPool{Solver: solver, Dataset: "aime", ProblemIds: ids}},
			Budget: &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 1}},
			Plan:   plan("p4", 400, "p3", 50, "p1", 100),
		}
	}
	resp, err := c.ExecutePlan(context.Background(), req(qwen, "p1", "p2", "p3", "p4"))
	if err != nil {
		t.Fatal(err)
	}
	// p3 is not gradeable: dropped from the pool, so α = 1 is 700 tokens and
	// the plan's p3 is an unknown id.
	if resp.GetBudget() != 700 || resp.GetPoolSize() != 3 || !slices.Equal(resp.GetUngradeableProblemIds(), []string{"p3"}) {
		t.Errorf("budget %d pool %d ungradeable %v", resp.GetBudget(), resp.GetPoolSize(), resp.GetUngradeableProblemIds())
	}
	if v := resp.GetResults()[0].GetValue(); v != 2 {
		t.Errorf("U value = %v, want 2", v)
	}

	_, err = c.ExecutePlan(context.Background(), req(qwen, "p1", "p7", "p9"))
	if status.Code(err) != codes.NotFound || !slices.Equal(resourceNames(err), []string{"aime/p7", "aime/p9"}) {
		t.Errorf("missing problems: %v (resources %v)", err, resourceNames(err))
	}
	other := &triagev1.Solver{Model: "qwen3-32b", Mode: triagev1.SolverMode_SOLVER_MODE_STANDARD}
	_, err = c.ExecutePlan(context.Background(), req(other, "p1"))
	if status.Code(err) != codes.NotFound || !slices.Equal(resourceNames(err), []string{"qwen3-32b/standard"}) {
		t.Errorf("unknown solver: %v", err)
	}
}

func resourceNames(err error) []string {
	var out []string
	for _, d := range status.Convert(err).Details() {
		if ri, ok := d.(*errdetails.ResourceInfo); ok {
			out = append(out, ri.GetResourceName())
		}
	}
	return out
}

func TestImportIsAtomicAndIdempotent(t *testing.T) {
	c, _ := newClient(t, true)
	records := make([]*triagev1.GroundTruthRecord, 2000)
	for i := range records {
		records[i] = record("mmlu", fmt.Sprintf("q%04d", i), int64(100+i), i%3 == 0, true)
	}
	records[1500].Cost = 0 // gradeable needs a positive cost
	_, err := importRecords(t, c, 500, records...)
	fvs := grpcerr.FieldViolations(err)
	if status.Code(err) != codes.InvalidArgument || len(fvs) != 1 || fvs[0].GetField() != "records[1500].cost" {
		t.Fatalf("bad import = %v, want one violation on records[1500].cost", err)
	}
	if n := countAll(t, c, nil, ""); n != 0 {
		t.Fatalf("%d records stored after a rejected import, want 0", n)
	}
	records[1500].Cost = 1600
	resp, err := importRecords(t, c, 500, records...)
	if err != nil || resp.GetInserted() != 2000 || resp.GetReceived() != 2000 {
		t.Fatalf("import = %v, %v", resp, err)
	}
	records[7].Correct = !records[7].Correct
	resp, err = importRecords(t, c, 700, records...)
	if err != nil || resp.GetInserted() != 0 || resp.GetUpdated() != 1 || resp.GetUnchanged() != 1999 {
		t.Fatalf("re-import = %v, %v; want 1 updated, 1999 unchanged", resp, err)
	}
	if n := countAll(t, c, nil, ""); n != 2000 {
		t.Errorf("%d records stored, want 2000", n)
	}
}

// countAll pages through the listing and checks records arrive in order,
// each once, with the import's stamped time.
func countAll(t *testing.T, c triagev1.ExecutorServiceClient, solver *triagev1.Solver, dataset string) int {
	t.Helper()
	req := &triagev1.ListGroundTruthRequest{Solver: solver, Dataset: dataset, PageSize: 300}
	var ids []string
	for {
		resp, err := c.ListGroundTruth(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range resp.GetRecords() {
			ids = append(ids, r.GetDataset()+"/"+r.GetProblemId())
			if !r.GetMeasuredTime().AsTime().Equal(fixedNow) && r.GetMeasuredTime().AsTime().Year() != 2025 {
				t.Errorf("measured time %v, want the import's clock", r.GetMeasuredTime().AsTime())
			}
		}
		if resp.GetNextPageToken() == "" {
			break
		}
		req.PageToken = resp.GetNextPageToken()
	}
	if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Errorf("listing out of order or with repeats")
	}
	return len(ids)
}

func TestListFiltersAndTokens(t *testing.T) {
	c, _ := newClient(t, true)
	measured := timestamppb.New(time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC))
	var recs []*triagev1.GroundTruthRecord
	for i := range 10 {
		r := record([]string{"aime", "lcb"}[i%2], fmt.Sprint("x", i), 10, true, true)
		r.MeasuredTime = measured
		recs = append(recs, r)
	}
	if _, err := importRecords(t, c, 3, recs...); err != nil {
		t.Fatal(err)
	}
	if n := countAll(t, c, qwen, "lcb"); n != 5 {
		t.Errorf("lcb records = %d, want 5", n)
	}
	other := &triagev1.Solver{Model: "other", Mode: triagev1.SolverMode_SOLVER_MODE_STANDARD}
	if n := countAll(t, c, other, ""); n != 0 {
		t.Errorf("other solver's records = %d, want 0", n)
	}
	_, err := c.ListGroundTruth(context.Background(), &triagev1.ListGroundTruthRequest{PageToken: "not-a-token"})
	if fvs := grpcerr.FieldViolations(err); len(fvs) != 1 || fvs[0].GetField() != "page_token" {
		t.Errorf("bad token: %v", err)
	}
}

func TestWithoutStore(t *testing.T) {
	c, _ := newClient(t, false)
	_, err := c.ListGroundTruth(context.Background(), &triagev1.ListGroundTruthRequest{})
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("list without store: %v", err)
	}
	_, err = importRecords(t, c, 1, record("a", "b", 1, true, true))
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("import without store: %v", err)
	}
	_, err = c.ExecutePlan(context.Background(), &triagev1.ExecutePlanRequest{
		Pool:   &triagev1.ExecutePlanRequest_Stored{Stored: &triagev1.StoredPool{Solver: qwen, Dataset: "aime", ProblemIds: []string{"p1"}}},
		Budget: &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: 5}},
	})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "inline") {
		t.Errorf("stored pool without store: %v", err)
	}
}

func TestExecuteValidation(t *testing.T) {
	c, _ := newClient(t, false)
	good := func() *triagev1.ExecutePlanRequest {
		return &triagev1.ExecutePlanRequest{
			Pool:   inline(&triagev1.GroundTruthItem{Id: "a", Cost: 10}),
			Budget: &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: 5}},
		}
	}
	tests := []struct {
		name   string
		mutate func(*triagev1.ExecutePlanRequest)
		fields string
	}{
		{"no pool", func(r *triagev1.ExecutePlanRequest) { r.Pool = nil }, "pool"},
		{"bad item", func(r *triagev1.ExecutePlanRequest) { r.GetInline().Items[0].Cost = -1 }, "inline.items[0].cost"},
		{"no budget", func(r *triagev1.ExecutePlanRequest) { r.Budget = nil }, "budget"},
		{"alpha out of range", func(r *triagev1.ExecutePlanRequest) {
			r.Budget = &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 2}}
		}, "budget.alpha"},
		{"bad regime", func(r *triagev1.ExecutePlanRequest) { r.Regimes = []triagev1.Regime{0} }, "regimes[0]"},
		{"repeated regime", func(r *triagev1.ExecutePlanRequest) {
			r.Regimes = []triagev1.Regime{triagev1.Regime_REGIME_ENFORCED, triagev1.Regime_REGIME_ENFORCED}
		}, "regimes[1]"},
		{"stored pool", func(r *triagev1.ExecutePlanRequest) {
			r.Pool = &triagev1.ExecutePlanRequest_Stored{Stored: &triagev1.StoredPool{Solver: &triagev1.Solver{}, ProblemIds: []string{"a", "", "a", "b\x1b[2J"}}}
		}, "stored.solver.model stored.solver.mode stored.dataset stored.problem_ids[1] stored.problem_ids[2] stored.problem_ids[3]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := good()
			tt.mutate(req)
			_, err := c.ExecutePlan(context.Background(), req)
			var fields []string
			for _, fv := range grpcerr.FieldViolations(err) {
				fields = append(fields, fv.GetField())
			}
			if status.Code(err) != codes.InvalidArgument || strings.Join(fields, " ") != tt.fields {
				t.Errorf("err = %v, fields %v; want InvalidArgument on %s", err, fields, tt.fields)
			}
		})
	}
}

func TestExecuteWorkBound(t *testing.T) {
	c, _ := newClient(t, false)
	plan := func(n int) []*triagev1.PlanStep {
		out := make([]*triagev1.PlanStep, n)
		for i := range out {
			out[i] = &triagev1.PlanStep{Id: "a", Tokens: 1}
		}
		return out
	}
	tests := []struct {
		name    string
		regimes []triagev1.Regime
		steps   int
		wantMsg string // "" for a request within the bound
	}{
		{name: "both regimes at the bound", steps: executor.MaxExecuteWork/2 - 1},
		{name: "both regimes over it", steps: executor.MaxExecuteWork / 2, wantMsg: "regimes × (items + plan steps) = 2 × (1 + 500000) = 1000002 exceeds 1000000"},
		{name: "one regime", regimes: []triagev1.Regime{triagev1.Regime_REGIME_ENFORCED}, steps: executor.MaxExecuteWork / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.ExecutePlan(context.Background(), &triagev1.ExecutePlanRequest{
				Pool:      inline(&triagev1.GroundTruthItem{Id: "a", Cost: 10}),
				Budget:    &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: 5}},
				Plan:      plan(tt.steps),
				Regimes:   tt.regimes,
				OmitTrace: true,
			})
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("err = %v, want a result", err)
				}
				return
			}
			fvs := grpcerr.FieldViolations(err)
			if status.Code(err) != codes.InvalidArgument || len(fvs) != 1 || fvs[0].GetField() != "plan" || !strings.Contains(fvs[0].GetDescription(), tt.wantMsg) {
				t.Errorf("err = %v, want InvalidArgument on plan containing %q", err, tt.wantMsg)
			}
		})
	}
}

// TestImportCostRules: a record's cost rule round-trips through import and
// listing; unspecified is stored as unknown; a value this build does not
// know is refused by field, and nothing of that import is stored.
func TestImportCostRules(t *testing.T) {
	c, st := newClient(t, true)
	apart := record("aime", "a", 7953, true, true)
	apart.CostRule = triagev1.CostRule_COST_RULE_COMPLETION_PLUS_REASONING
	unsaid := record("aime", "b", 50, false, true)
	failed := record("aime", "c", 0, false, false)
	failed.CostRule = triagev1.CostRule_COST_RULE_NONE
	bogus := record("aime", "d", 10, false, true)
	bogus.CostRule = 42
	_, err := importRecords(t, c, 10, apart, unsaid, failed, bogus)
	fvs := grpcerr.FieldViolations(err)
	if status.Code(err) != codes.InvalidArgument || len(fvs) != 1 || fvs[0].GetField() != "records[3].cost_rule" || !strings.Contains(fvs[0].GetDescription(), `"42"`) {
		t.Fatalf("import with an unknown rule = %v; want one violation on records[3].cost_rule naming 42", err)
	}
	gradedNone := record("aime", "e", 10, false, true)
	gradedNone.CostRule = triagev1.CostRule_COST_RULE_NONE
	_, err = importRecords(t, c, 10, apart, gradedNone)
	if fvs := grpcerr.FieldViolations(err); len(fvs) != 1 || fvs[0].GetField() != "records[1].cost_rule" {
		t.Fatalf("gradeable record with rule none = %v; want a violation on records[1].cost_rule", err)
	}
	if n := countAll(t, c, nil, ""); n != 0 {
		t.Fatalf("%d records stored after rejected imports", n)
	}
	if _, err := importRecords(t, c, 2, apart, unsaid, failed); err != nil {
		t.Fatal(err)
	}
	page, err := c.ListGroundTruth(context.Background(), &triagev1.ListGroundTruthRequest{})
	if err != nil || len(page.GetRecords()) != 3 {
		t.Fatalf("list: %v, %v", page, err)
	}
	want := []triagev1.CostRule{triagev1.CostRule_COST_RULE_COMPLETION_PLUS_REASONING, triagev1.CostRule_COST_RULE_UNSPECIFIED, triagev1.CostRule_COST_RULE_NONE}
	for i, r := range page.GetRecords() {
		if r.GetCostRule() != want[i] {
			t.Errorf("%s: rule %v, want %v", r.GetProblemId(), r.GetCostRule(), want[i])
		}
	}
	got, err := st.Get(context.Background(), groundtruth.Solver{Model: "qwen3-32b", Mode: "extended"}, "aime", []string{"b"})
	if err != nil || got["b"].CostRule != costrule.Unknown {
		t.Errorf("unspecified stored as %q, %v; want %q", got["b"].CostRule, err, costrule.Unknown)
	}
}

// TestImportProblemDigests: a record's problem digest round-trips through
// import and listing, absent stays absent, and one that is not a digest is
// refused by field, storing nothing of that import.
func TestImportProblemDigests(t *testing.T) {
	c, _ := newClient(t, true)
	digest := strings.Repeat("0f", 32)
	known := record("aime", "a", 10, true, true)
	known.ProblemSha256 = digest
	unknown := record("aime", "b", 20, false, true)
	bogus := record("aime", "c", 30, false, true)
	bogus.ProblemSha256 = strings.ToUpper(digest)
	_, err := importRecords(t, c, 10, known, unknown, bogus)
	if fvs := grpcerr.FieldViolations(err); status.Code(err) != codes.InvalidArgument || len(fvs) != 1 || fvs[0].GetField() != "records[2].problem_sha256" {
		t.Fatalf("import with a digest in capitals = %v; want one violation on records[2].problem_sha256", err)
	}
	if n := countAll(t, c, nil, ""); n != 0 {
		t.Fatalf("%d records stored after a rejected import", n)
	}
	if _, err := importRecords(t, c, 10, known, unknown); err != nil {
		t.Fatal(err)
	}
	page, err := c.ListGroundTruth(context.Background(), &triagev1.ListGroundTruthRequest{})
	if err != nil || len(page.GetRecords()) != 2 {
		t.Fatalf("list: %v, %v", page, err)
	}
	for i, want := range []string{digest, ""} {
		if r := page.GetRecords()[i]; r.GetProblemSha256() != want {
			t.Errorf("%s: problem_sha256 %q, want %q", r.GetProblemId(), r.GetProblemSha256(), want)
		}
	}
}
