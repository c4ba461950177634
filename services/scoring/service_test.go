package scoring_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/inproc"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/scoring"
)

var qwen = &triagev1.Solver{Model: "qwen3-32b", Mode: triagev1.SolverMode_SOLVER_MODE_EXTENDED}

// fixture is a Scoring service composing an Executor (over a fresh SQLite
// store) and an Oracle, and clients to all three.
type fixture struct {
	scoring  triagev1.ScoringServiceClient
	executor triagev1.ExecutorServiceClient
}

// newLocal serves the Scoring service composing in-process services.
func newLocal(t *testing.T) fixture {
	t.Helper()
	st, err := groundtruth.Open(context.Background(), filepath.Join(t.TempDir(), "gt.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	exec := executor.New(st, time.Now)
	orc := oracle.NewService()
	conn := servertest.Start(t, nil,
		server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: exec},
		server.Service{Name: "scoring", Desc: &triagev1.ScoringService_ServiceDesc, Impl: scoring.New(scoring.LocalExecutor(exec), scoring.LocalOracle(orc), scoring.Options{Workers: 2, CacheEntries: 16})},
	)
	return fixture{scoring: triagev1.NewScoringServiceClient(conn), executor: triagev1.NewExecutorServiceClient(conn)}
}

// newRemote serves the Scoring service on its own, calling an Executor
// and an Oracle served elsewhere over gRPC.
func newRemote(t *testing.T) fixture {
	t.Helper()
	st, err := groundtruth.Open(context.Background(), filepath.Join(t.TempDir(), "gt.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	up := servertest.Start(t, nil,
		server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(st, time.Now)},
		server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()},
	)
	svc := scoring.New(scoring.RemoteExecutor(triagev1.NewExecutorServiceClient(up)), scoring.RemoteOracle(triagev1.NewOracleServiceClient(up)), scoring.Options{Workers: 2, CacheEntries: 16})
	conn := servertest.Start(t, nil, server.Service{Name: "scoring", Desc: &triagev1.ScoringService_ServiceDesc, Impl: svc})
	return fixture{scoring: triagev1.NewScoringServiceClient(conn), executor: triagev1.NewExecutorServiceClient(up)}
}

// compositions are the two ways the service reaches its upstreams.
var compositions = []struct {
	name  string
	start func(*testing.T) fixture
}{{"local", newLocal}, {"remote", newRemote}}

func item(id string, cost int64, correct bool) *triagev1.GroundTruthItem {
	return &triagev1.GroundTruthItem{Id: id, Cost: cost, Correct: correct}
}

func steps(pairs ...any) []*triagev1.PlanStep {
	var out []*triagev1.PlanStep
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, &triagev1.PlanStep{Id: pairs[i].(string), Tokens: int64(pairs[i+1].(int))})
	}
	return out
}

func tokens(n int64) *triagev1.Budget {
	return &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: n}}
}
func alpha(a float64) *triagev1.Budget {
	return &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: a}}
}

func inline(items ...*triagev1.GroundTruthItem) *triagev1.ScorePlanRequest_Inline {
	return &triagev1.ScorePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: items}}
}

// pool4 is four items, 1000 tokens, three solvable; p4 is an injected
// unsolvable item whose grader accepted a lucky guess.
func pool4() *triagev1.ScorePlanRequest_Inline {
	return inline(item("p1", 100, true), item("p2", 200, true), item("p3", 300, false), item("p4", 400, true))
}

func TestScorePlan(t *testing.T) {
	for _, comp := range compositions {
		t.Run(comp.name, func(t *testing.T) {
			f := comp.start(t)
			req := &triagev1.ScorePlanRequest{
				Pool:       pool4(),
				Budgets:    []*triagev1.Budget{tokens(300), alpha(1)},
				Plan:       steps("p1", 100, "p4", 150, "p9", 10, "p2", 250, "p1", 5),
				Unsolvable: &triagev1.UnsolvableItems{Ids: []string{"p4"}},
				Options: &triagev1.ScoringOptions{
					Random:            &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT},
					IncludeTrace:      true,
					IncludeOraclePlan: true,
				},
			}
			resp, err := f.scoring.ScorePlan(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.GetPoolSize() != 4 || resp.GetTotalCost() != 1000 || resp.GetTotalValue() != 2 || resp.GetPlannedTokens() != 500 {
				t.Errorf("pool %d, total cost %d, total value %v, planned %d", resp.GetPoolSize(), resp.GetTotalCost(), resp.GetTotalValue(), resp.GetPlannedTokens())
			}
			if got := ids(resp.GetNormalizedPlan()); !slices.Equal(got, []string{"p1", "p4", "p2"}) {
				t.Errorf("normalized plan %v", got)
			}
			if n := len(resp.GetDroppedSteps()); n != 2 {
				t.Errorf("%d dropped steps, want 2 (unknown p9, duplicate p1)", n)
			}
			inj := resp.GetInjection()
			if inj.GetUnsolvable() != 1 || inj.Detection == nil || inj.GetDetection() != 0 || inj.GetWaste() != 0.3 {
				t.Errorf("injection = %v, want U 1, D 0, W 0.3", inj)
			}
			if len(resp.GetScores()) != 2 {
				t.Fatalf("%d budget scores, want 2", len(resp.GetScores()))
			}
			// B = 300: p1 (100) scores, p4 (400 > 200 left) stops U. The
			// oracle takes p1 and p2 (value 2; p4 is unsolvable).
			b0 := resp.GetScores()[0]
			if b0.GetBudget() != 300 || b0.Alpha != nil || b0.GetOracle().GetValue() != 2 || len(b0.GetOracle().GetPlan()) != 2 {
				t.Errorf("budgets[0] = %v", b0)
			}
			if b0.GetDegeneracy() != triagev1.Degeneracy_DEGENERACY_INFORMATIVE || b0.GetRandom().GetMethod() != triagev1.RandomMethod_RANDOM_METHOD_EXACT {
				t.Errorf("budgets[0] degeneracy %v, random %v", b0.GetDegeneracy(), b0.GetRandom())
			}
			u := b0.GetRegimes()[0]
			if u.GetRegime() != triagev1.Regime_REGIME_ADVISORY || u.GetValue() != 1 || u.Regret == nil || u.GetRegret() != 0.5 || len(u.GetTrace()) != 3 {
				t.Errorf("budgets[0] U = %v", u)
			}
			wantEta := (1 - b0.GetRandom().GetMean()) / (2 - b0.GetRandom().GetMean())
			if math.Abs(u.GetEta()-wantEta) > 1e-12 {
				t.Errorf("η_U = %v, want %v", u.GetEta(), wantEta)
			}
			b1 := resp.GetScores()[1]
			if b1.GetBudget() != 1000 || b1.GetAlpha() != 1 || b1.GetDegeneracy() != triagev1.Degeneracy_DEGENERACY_COLLAPSE {
				t.Errorf("budgets[1] = budget %d, α %v, degeneracy %v", b1.GetBudget(), b1.GetAlpha(), b1.GetDegeneracy())
			}
			if e := b1.GetRegimes()[1]; e.GetRegime() != triagev1.Regime_REGIME_ENFORCED || e.GetValue() != 2 || e.GetEta() != 1 {
				t.Errorf("budgets[1] E = %v", e)
			}
		})
	}
}

func TestScorePlanDefaultsLeaveOutTracesAndOraclePlans(t *testing.T) {
	f := newLocal(t)
	resp, err := f.scoring.ScorePlan(context.Background(), &triagev1.ScorePlanRequest{
		Pool: pool4(), Budgets: []*triagev1.Budget{alpha(0.5)}, Plan: steps("p1", 100),
		Regimes: []triagev1.Regime{triagev1.Regime_REGIME_ENFORCED},
	})
	if err != nil {
		t.Fatal(err)
	}
	b := resp.GetScores()[0]
	if len(b.GetRegimes()) != 1 || len(b.GetRegimes()[0].GetTrace()) != 0 || len(b.GetOracle().GetPlan()) != 0 {
		t.Errorf("regimes %v, oracle %v: want E only, without trace or oracle plan", b.GetRegimes(), b.GetOracle())
	}
	if r := b.GetRandom(); r.GetMethod() != triagev1.RandomMethod_RANDOM_METHOD_MONTE_CARLO || r.GetSamples() != 1000 {
		t.Errorf("random = %v, want Monte Carlo with 1000 samples", r)
	}
	if resp.GetInjection() != nil {
		t.Errorf("injection %v without flags", resp.GetInjection())
	}
}

func TestScorePlanDegenerateNoValue(t *testing.T) {
	f := newLocal(t)
	resp, err := f.scoring.ScorePlan(context.Background(), &triagev1.ScorePlanRequest{
		Pool: inline(item("a", 10, false), item("b", 20, true)), Budgets: []*triagev1.Budget{tokens(15)}, Plan: steps("a", 10),
		Unsolvable: &triagev1.UnsolvableItems{},
	})
	if err != nil {
		t.Fatal(err)
	}
	b := resp.GetScores()[0]
	if b.GetDegeneracy() != triagev1.Degeneracy_DEGENERACY_NO_VALUE || b.GetRegimes()[0].GetEta() != 1 || b.GetRegimes()[0].Regret != nil {
		t.Errorf("D1 pool: %v", b)
	}
	if inj := resp.GetInjection(); inj.Detection != nil || inj.GetWaste() != 0 || inj.GetUnsolvable() != 0 {
		t.Errorf("empty U: injection %v, want D unset, W 0", inj)
	}
}

func TestScorePlanStored(t *testing.T) {
	for _, comp := range compositions {
		t.Run(comp.name, func(t *testing.T) {
			f := comp.start(t)
			importRecords(t, f.executor,
				record("p1", 100, true, true), record("p2", 200, false, true),
				record("p3", 0, false, false), record("p4", 400, true, true))
			req := &triagev1.ScorePlanRequest{
				Pool:       &triagev1.ScorePlanRequest_Stored{Stored: &triagev1.StoredPool{Solver: qwen, Dataset: "aime", ProblemIds: []string{"p1", "p2", "p3", "p4"}}},
				Budgets:    []*triagev1.Budget{alpha(1)},
				Plan:       steps("p4", 400, "p1", 100),
				Unsolvable: &triagev1.UnsolvableItems{Ids: []string{"p3", "p4"}},
			}
			resp, err := f.scoring.ScorePlan(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			// p3 is not gradeable: out of the pool and of U; p4, flagged
			// unsolvable, scores 0 although its record says correct.
			if resp.GetPoolSize() != 3 || !slices.Equal(resp.GetUngradeableProblemIds(), []string{"p3"}) || resp.GetTotalValue() != 1 {
				t.Errorf("pool %d, ungradeable %v, total value %v", resp.GetPoolSize(), resp.GetUngradeableProblemIds(), resp.GetTotalValue())
			}
			b := resp.GetScores()[0]
			if b.GetBudget() != 700 || b.GetOracle().GetValue() != 1 || b.GetRegimes()[0].GetValue() != 1 {
				t.Errorf("budget %d, V_oracle %v, V_U %v", b.GetBudget(), b.GetOracle().GetValue(), b.GetRegimes()[0].GetValue())
			}
			if inj := resp.GetInjection(); inj.GetUnsolvable() != 1 || inj.GetDetection() != 0 || inj.GetWaste() != 0.8 {
				t.Errorf("injection %v, want U 1, D 0, W 0.8", inj)
			}

			req.GetStored().ProblemIds = []string{"p1", "p7"}
			req.Unsolvable = nil
			_, err = f.scoring.ScorePlan(context.Background(), req)
			if status.Code(err) != codes.NotFound {
				t.Errorf("missing problem: %v, want NotFound", err)
			}
		})
	}
}

func record(id string, cost int64, correct, gradeable bool) *triagev1.GroundTruthRecord {
	return &triagev1.GroundTruthRecord{Solver: qwen, Dataset: "aime", ProblemId: id, Cost: cost, Correct: correct, Gradeable: gradeable}
}

func importRecords(t *testing.T, c triagev1.ExecutorServiceClient, records ...*triagev1.GroundTruthRecord) {
	t.Helper()
	stream, err := c.ImportGroundTruth(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&triagev1.ImportGroundTruthRequest{Records: records}); err != nil {
		t.Fatal(err)
	}
	if _, err := stream.CloseAndRecv(); err != nil {
		t.Fatal(err)
	}
}

// hostile are requests each wrong in one way, with the field the error
// must name.
var hostile = []struct {
	name  string
	edit  func(*triagev1.ScorePlanRequest)
	field string
}{
	{"no pool", func(r *triagev1.ScorePlanRequest) { r.Pool = nil }, "pool"},
	{"empty pool", func(r *triagev1.ScorePlanRequest) { r.GetInline().Items = nil }, "inline.items"},
	{"empty stored pool", func(r *triagev1.ScorePlanRequest) {
		r.Pool = &triagev1.ScorePlanRequest_Stored{Stored: &triagev1.StoredPool{Solver: &triagev1.Solver{Model: "m"}, Dataset: "d"}}
	}, "stored.problem_ids"},
	{"no budget", func(r *triagev1.ScorePlanRequest) { r.Budgets = nil }, "budgets"},
	{"too many budgets", func(r *triagev1.ScorePlanRequest) {
		r.Budgets = slices.Repeat([]*triagev1.Budget{alpha(0.5)}, scoring.MaxBudgets+1)
	}, "budgets"},
	{"α out of range", func(r *triagev1.ScorePlanRequest) { r.Budgets = append(r.Budgets, alpha(1.5)) }, "budgets[1].alpha"},
	{"α NaN", func(r *triagev1.ScorePlanRequest) { r.Budgets[0] = alpha(math.NaN()) }, "budgets[0].alpha"},
	{"negative tokens", func(r *triagev1.ScorePlanRequest) { r.Budgets[0] = tokens(-1) }, "budgets[0].tokens"},
	{"empty budget", func(r *triagev1.ScorePlanRequest) { r.Budgets[0] = &triagev1.Budget{} }, "budgets[0]"},
	{"zero cost", func(r *triagev1.ScorePlanRequest) { r.GetInline().Items[2].Cost = 0 }, "inline.items[2].cost"},
	{"duplicate item", func(r *triagev1.ScorePlanRequest) { r.GetInline().Items[3].Id = "p1" }, "inline.items[3].id"},
	{"NUL in id", func(r *triagev1.ScorePlanRequest) { r.GetInline().Items[0].Id = "p\x00" }, "inline.items[0].id"},
	{"line break in id", func(r *triagev1.ScorePlanRequest) { r.GetInline().Items[0].Id = "p\n1" }, "inline.items[0].id"},
	{"infinite value", func(r *triagev1.ScorePlanRequest) { r.GetInline().Items[1].Value = proto.Float64(math.Inf(1)) }, "inline.items[1].value"},
	{"unknown regime", func(r *triagev1.ScorePlanRequest) { r.Regimes = []triagev1.Regime{7} }, "regimes[0]"},
	{"regime twice", func(r *triagev1.ScorePlanRequest) {
		r.Regimes = []triagev1.Regime{triagev1.Regime_REGIME_ENFORCED, triagev1.Regime_REGIME_ENFORCED}
	}, "regimes[1]"},
	{"unsolvable not in pool", func(r *triagev1.ScorePlanRequest) {
		r.Unsolvable = &triagev1.UnsolvableItems{Ids: []string{"p1", "zz"}}
	}, "unsolvable.ids[1]"},
	{"unsolvable twice", func(r *triagev1.ScorePlanRequest) {
		r.Unsolvable = &triagev1.UnsolvableItems{Ids: []string{"p4", "p4"}}
	}, "unsolvable.ids[1]"},
	{"negative samples", func(r *triagev1.ScorePlanRequest) {
		r.Options = &triagev1.ScoringOptions{Random: &triagev1.RandomReferenceOptions{Samples: -5}}
	}, "options.random.samples"},
	{"samples with exact", func(r *triagev1.ScorePlanRequest) {
		r.Options = &triagev1.ScoringOptions{Random: &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT, Samples: 10}}
	}, "options.random.samples"},
	{"unknown method", func(r *triagev1.ScorePlanRequest) {
		r.Options = &triagev1.ScoringOptions{Random: &triagev1.RandomReferenceOptions{Method: 9}}
	}, "options.random.method"},
	{"too many samples", func(r *triagev1.ScorePlanRequest) {
		r.Options = &triagev1.ScoringOptions{Random: &triagev1.RandomReferenceOptions{Samples: 2_000_000}}
	}, "options.random.samples"},
	{"plan too long for the budgets", func(r *triagev1.ScorePlanRequest) {
		r.Budgets = slices.Repeat([]*triagev1.Budget{alpha(0.5)}, scoring.MaxBudgets)
		r.Plan = slices.Repeat(steps("p1", 1), scoring.MaxExecuteWork/scoring.MaxBudgets/2)
	}, "plan"},
	{"stored pool without solver", func(r *triagev1.ScorePlanRequest) {
		r.Pool = &triagev1.ScorePlanRequest_Stored{Stored: &triagev1.StoredPool{Dataset: "aime", ProblemIds: []string{"p1"}}}
		r.Unsolvable = nil
	}, "stored.solver.model"},
}

func validRequest() *triagev1.ScorePlanRequest {
	return &triagev1.ScorePlanRequest{Pool: pool4(), Budgets: []*triagev1.Budget{alpha(0.5)}, Plan: steps("p1", 100, "p2", 200)}
}

func TestScorePlanHostileInput(t *testing.T) {
	for _, comp := range compositions {
		t.Run(comp.name, func(t *testing.T) {
			f := comp.start(t)
			for _, tt := range hostile {
				t.Run(tt.name, func(t *testing.T) {
					req := validRequest()
					tt.edit(req)
					_, err := f.scoring.ScorePlan(context.Background(), req)
					checkInvalid(t, err, tt.field)
				})
			}
		})
	}
}

// checkInvalid fails unless err is InvalidArgument naming field.
func checkInvalid(t *testing.T, err error, field string) {
	t.Helper()
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("err = %v, want InvalidArgument", err)
	}
	var fields []string
	for _, fv := range grpcerr.FieldViolations(err) {
		fields = append(fields, fv.GetField())
	}
	if !slices.Contains(fields, field) {
		t.Errorf("violations name %v, want %q (%v)", fields, field, err)
	}
}

func TestScorePlansBatch(t *testing.T) {
	for _, comp := range compositions {
		t.Run(comp.name, func(t *testing.T) {
			f := comp.start(t)
			var reqs []*triagev1.ScorePlanRequest
			for i, tt := range hostile {
				good := validRequest()
				good.Plan = steps("p1", 100+i)
				bad := validRequest()
				tt.edit(bad)
				reqs = append(reqs, good, bad)
			}
			got := scoreBatch(t, f.scoring, reqs)
			if len(got) != len(reqs) {
				t.Fatalf("%d responses for %d requests", len(got), len(reqs))
			}
			for i, r := range got {
				if r.GetIndex() != int32(i) {
					t.Fatalf("response %d has index %d", i, r.GetIndex())
				}
				if i%2 == 0 {
					want, err := f.scoring.ScorePlan(context.Background(), reqs[i])
					if err != nil {
						t.Fatal(err)
					}
					want.Version = nil
					if !proto.Equal(r.GetResult(), want) {
						t.Errorf("result %d = %v, want ScorePlan's %v", i, r.GetResult(), want)
					}
					continue
				}
				checkInvalid(t, status.ErrorProto(r.GetError()), hostile[i/2].field)
			}
		})
	}
}

func scoreBatch(t *testing.T, c triagev1.ScoringServiceClient, reqs []*triagev1.ScorePlanRequest) []*triagev1.ScorePlansResponse {
	t.Helper()
	stream, err := c.ScorePlans(context.Background(), &triagev1.ScorePlansRequest{Requests: reqs})
	if err != nil {
		t.Fatal(err)
	}
	var out []*triagev1.ScorePlansResponse
	for {
		r, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
}

func TestScorePlansBatchLimits(t *testing.T) {
	f := newLocal(t)
	heavy := validRequest()
	heavy.Options = &triagev1.ScoringOptions{Random: &triagev1.RandomReferenceOptions{Samples: 1_000_000}}
	heavy.Budgets = slices.Repeat([]*triagev1.Budget{alpha(0.5)}, 40)
	for _, tt := range []struct {
		name string
		reqs []*triagev1.ScorePlanRequest
	}{
		{"empty", nil},
		{"too many", slices.Repeat([]*triagev1.ScorePlanRequest{validRequest()}, scoring.MaxBatchRequests+1)},
		{"too much work", slices.Repeat([]*triagev1.ScorePlanRequest{heavy}, 7)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stream, err := f.scoring.ScorePlans(context.Background(), &triagev1.ScorePlansRequest{Requests: tt.reqs}, grpc.MaxCallSendMsgSize(64<<20))
			if err == nil {
				_, err = stream.Recv()
			}
			if status.Code(err) == codes.ResourceExhausted && strings.Contains(err.Error(), "larger than max") {
				t.Skip("the batch is over the message size limit before the service sees it")
			}
			checkInvalid(t, err, "requests")
		})
	}
}

func ids(plan []*triagev1.PlanStep) []string {
	out := make([]string, len(plan))
	for i, st := range plan {
		out[i] = st.GetId()
	}
	return out
}

// TestScorePlansOversizedResult: a result over the server's message limit
// becomes that pair's own ResourceExhausted outcome, saying what to leave
// out, and the pairs after it are still scored; it once ended the whole
// batch with grpc's error, the later pairs never scored.
func TestScorePlansOversizedResult(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.MaxMessageBytes = 128 << 10
	exec := executor.New(nil, time.Now)
	conn, err := inproc.Start(cfg, slog.New(slog.DiscardHandler), telemetry.Disabled(), []server.Service{{
		Name: "scoring", Desc: &triagev1.ScoringService_ServiceDesc,
		Impl: scoring.New(scoring.LocalExecutor(exec), scoring.LocalOracle(oracle.NewService()), scoring.Options{Workers: 2, CacheEntries: 16}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	big := validRequest()
	var items []*triagev1.GroundTruthItem
	var plan []any
	for i := range 1000 {
		id := fmt.Sprintf("item-%04d", i)
		items = append(items, item(id, int64(100+i), i%2 == 0))
		plan = append(plan, id, 100+i)
	}
	big.Pool, big.Plan = inline(items...), steps(plan...)
	big.Budgets = []*triagev1.Budget{alpha(0.25), alpha(0.5), alpha(0.75), alpha(1)}
	big.Options = &triagev1.ScoringOptions{IncludeTrace: true, IncludeOraclePlan: true}
	if proto.Size(big) > cfg.MaxMessageBytes/2 {
		t.Fatalf("the request is %d bytes: the test needs one well within the limit", proto.Size(big))
	}
	got := scoreBatch(t, triagev1.NewScoringServiceClient(conn), []*triagev1.ScorePlanRequest{validRequest(), big, validRequest()})
	if len(got) != 3 {
		t.Fatalf("%d outcomes for 3 pairs: %v", len(got), got)
	}
	for _, i := range []int{0, 2} {
		if got[i].GetResult() == nil {
			t.Errorf("pair %d: %v, want its result", i, got[i])
		}
	}
	st := status.FromProto(got[1].GetError())
	if st.Code() != codes.ResourceExhausted || !strings.Contains(st.Message(), "requests[1]") || !strings.Contains(st.Message(), "options.include_trace") {
		t.Errorf("the oversized pair's outcome: %v, want ResourceExhausted naming requests[1] and what to leave out", st)
	}
	if got[1].GetVersion() == nil {
		t.Error("the oversized pair's outcome has no version stamp")
	}
	// The same request alone says what to leave out too (it said "ask for
	// less", which a platform's retry handler cannot act on).
	_, err = triagev1.NewScoringServiceClient(conn).ScorePlan(context.Background(), big)
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "ask for fewer budgets, or leave out options.include_trace and options.include_oracle_plan") {
		t.Errorf("ScorePlan of the oversized pair: %v, want ResourceExhausted saying what to leave out", err)
	}
}
