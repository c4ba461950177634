package cli

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/protocol/injection"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
	"github.com/triage-eval/triage/internal/testkit/step"
)

// injectionModel answers solver prompts with "Answer: A" (a guess that is
// right for a quarter of MMLU, and for some unsolvable twins: lucky guesses)
// at a cost that follows the text, and planner prompts with a plan that
// gives every odd problem 400 tokens.
func injectionModel(_ int, r llmtest.Recorded) llmtest.Reply {
	prompt := fakemodel.Parse(r).Prompt()
	if ids := fakemodel.PlannerIDs(prompt); len(ids) > 0 {
		var odd []string
		for i, id := range ids {
			if i%2 == 1 {
				odd = append(odd, id)
			}
		}
		return llmtest.OpenAI(llmtest.Completion{Content: fakemodel.Plan(odd, 400), CompletionTokens: 60})
	}
	return llmtest.OpenAI(llmtest.Completion{Content: "Answer: A", CompletionTokens: 80 + len(prompt)%400})
}

// TestInjectionEndToEnd runs the paper's unsolvable-injection experiment on
// the committed MMLU records: import mmlu-math and its Abstain variants,
// the baseline of two solvers on both, a run injecting at all five ratios,
// and the report; then checks the compositions, D and W against an
// independent recomputation from the stored plans, and resuming.
func TestInjectionEndToEnd(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	env, _, logs := testEnv(nil)
	mmlu := benchdata.Path(t, "mmlu/mmlu_math.jsonl")
	step.Run(t, "import", func(t *testing.T) {
		for _, args := range [][]string{
			{"import", "mmlu", "--subjects", "college_mathematics", "--out", filepath.Join(dir, "base.jsonl"), mmlu},
			{"import", "mmlu-abstain", "--subjects", "college_mathematics", "--out", filepath.Join(dir, "abstain.jsonl"), mmlu},
		} {
			if err := Run(ctx, args, env); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, logs)
			}
		}
	})
	srv := llmtest.NewServer(t, llmtest.WithHandler(injectionModel))
	write := func(t *testing.T, name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(t, "endpoints.json", fakemodel.EndpointsFile(map[string]fakemodel.Endpoint{
		"m-std": {BaseURL: srv.URL(), Model: "m", Mode: "standard", Family: "qwen", MaxAttempts: 2, Timeout: "5s"},
		"m-ext": {BaseURL: srv.URL(), Model: "m", Mode: "extended", Family: "qwen", MaxAttempts: 2, Timeout: "5s"},
	}))
	config := func(ratios string) string {
		return `name: injection
run_store: run.db
ground_truth_store: gt.db
problems: [base.jsonl, abstain.jsonl]
endpoints: endpoints.json
llm_cache: llm-cache.db
solvers:
  - {model: m, mode: standard, endpoint: m-std}
  - {model: m, mode: extended, endpoint: m-ext}
pool_size: 10
partition_seed: 3
alphas: [0.5, 1]
strategies: [llm, random]
injection:
  - {base: mmlu-math, source: mmlu-math-abstain, ratios: ` + ratios + `, seed: 11}
`
	}
	write(t, "run.yaml", config("[0, 0.25, 0.5, 0.75, 1]"))
	cfgPath := filepath.Join(dir, "run.yaml")
	step.Run(t, "baseline", func(t *testing.T) {
		if err := Run(ctx, []string{"baseline", "--progress", "off", cfgPath}, env); err != nil {
			t.Fatalf("baseline: %v\n%s", err, logs)
		}
		if !strings.Contains(logs.String(), "lucky guesses on unsolvable problems") {
			t.Errorf("the baseline summary names no lucky guess:\n%s", logs)
		}
	})
	step.Run(t, "run", func(t *testing.T) {
		if err := Run(ctx, []string{"run", "--progress", "off", cfgPath}, env); err != nil {
			t.Fatalf("run: %v\n%s", err, logs)
		}
	})
	step.Run(t, "report", func(t *testing.T) {
		if err := Run(ctx, []string{"report", filepath.Join(dir, "run.db")}, env); err != nil {
			t.Fatal(err)
		}
	})

	rs, err := runstore.Open(ctx, filepath.Join(dir, "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	man, err := rs.Manifest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	base := man.Partitions["mmlu-math"]
	if len(base) != 10 || len(man.Injected) != 10*5 {
		t.Fatalf("%d base pools and %d injected pools; want 10 and 50", len(base), len(man.Injected))
	}
	injectedAt := map[[2]string]map[string]bool{} // (pool, ratio) → injected ids
	t.Run("injected pools", func(t *testing.T) {
		for _, ip := range man.Injected {
			n := len(base[ip.Index].ProblemIDs)
			if len(ip.ProblemIDs) != n {
				t.Errorf("pool %d at r = %v holds %d problems, its base pool %d", ip.Index, ip.Ratio, len(ip.ProblemIDs), n)
			}
			in := map[string]bool{}
			k := 0
			for i, id := range ip.ProblemIDs {
				in[id] = ip.Injected[i]
				if ip.Injected[i] {
					k++
				}
			}
			if k != injection.K(ip.Ratio, n) {
				t.Errorf("pool %d at r = %v: %d injected, want round(r·n) = %d", ip.Index, ip.Ratio, k, injection.K(ip.Ratio, n))
			}
			for id := range in {
				if _, twin := in[id+"-abstain"]; twin {
					t.Errorf("pool %d at r = %v holds %s and its unsolvable twin", ip.Index, ip.Ratio, id)
				}
			}
			injectedAt[[2]string{fmt.Sprint(ip.Index), fmt.Sprint(ip.Ratio)}] = in
		}
	})

	res, err := rs.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	solvers := []orchestrator.Solver{{Model: "m", Mode: "standard"}, {Model: "m", Mode: "extended"}}
	t.Run("records", func(t *testing.T) {
		for _, r := range res.Records {
			if r.Ratio != nil && *r.Ratio == 1 && r.Oracle != 0 {
				t.Errorf("r = 1, %s pool %d: oracle %v, want 0", r.Mode, r.Pool, r.Oracle)
			}
			if r.Excluded != "" {
				t.Errorf("excluded record %+v", r)
			}
		}
	})

	// D and W per cell, recomputed from the stored plans and the manifest.
	rep := report.Build(res.Records, res.Accuracy)
	if len(rep.Injection) != 2*5*2*2*2 {
		t.Fatalf("%d injection cells, want 80", len(rep.Injection))
	}
	t.Run("D and W recomputed from the stored plans", func(t *testing.T) {
		for _, c := range rep.Injection {
			s := orchestrator.Solver{Model: c.Model, Mode: c.Mode}
			var dSum, wSum float64
			var dN, wN int
			for pool := range base {
				key := orchestrator.InjectedCellKey(s, c.Dataset, pool, c.Alpha, c.Strategy, c.Variant, c.Source, c.Ratio)
				plan := storedPlanOf(t, rs, key)
				injected := injectedAt[[2]string{fmt.Sprint(pool), fmt.Sprint(c.Ratio)}]
				d, dOK, w := recomputeDW(plan, injected)
				if dOK {
					dSum += d
					dN++
				}
				wSum += w
				wN++
			}
			if dN != c.Detection.N || wN != c.Waste.N || (dN > 0 && !near(dSum/float64(dN), c.Detection.Value)) || !near(wSum/float64(wN), c.Waste.Value) {
				t.Errorf("%s/%s α=%v %s r=%v: report D %v (n=%d) W %v (n=%d); recomputed %v (n=%d), %v (n=%d)",
					c.Mode, c.Strategy, c.Alpha, c.Regime, c.Ratio, c.Detection.Value, c.Detection.N, c.Waste.Value, c.Waste.N, dSum/float64(max(dN, 1)), dN, wSum/float64(wN), wN)
			}
		}
		mixed := slices.ContainsFunc(rep.Injection, func(c report.Cell) bool {
			return c.Strategy == "llm" && c.Detection.Defined && c.Detection.Value > 0 && c.Detection.Value < 1
		})
		if !mixed {
			t.Error("no llm cell has 0 < D < 1: the model's plans do not exercise detection")
		}
	})
	// The same pools for both solvers: their planners saw the same problems
	// in the same order.
	t.Run("the same pools for both solvers", func(t *testing.T) {
		for _, ip := range man.Injected {
			var seen [][]string
			for _, s := range solvers {
				plan := storedPlanOf(t, rs, orchestrator.InjectedCellKey(s, "mmlu-math", ip.Index, 1, "llm", "default", ip.Source, ip.Ratio))
				var ids []string
				for _, m := range plan.GetPlannerIds() {
					ids = append(ids, m.GetProblemId())
				}
				seen = append(seen, ids)
			}
			if !slices.Equal(seen[0], seen[1]) || !slices.Equal(seen[0], ip.ProblemIDs) {
				t.Errorf("pool %d at r = %v: the solvers saw %v and %v, the manifest says %v", ip.Index, ip.Ratio, seen[0], seen[1], ip.ProblemIDs)
			}
		}
	})
	// r = 0 is the base pools: its row equals the main results.
	t.Run("r = 0 equals the main results", func(t *testing.T) {
		for _, c := range rep.Injection {
			if c.Ratio != 0 {
				continue
			}
			i := slices.IndexFunc(rep.Cells, func(m report.Cell) bool {
				return m.Model == c.Model && m.Mode == c.Mode && m.Dataset == c.Dataset && m.Alpha == c.Alpha &&
					m.Strategy == c.Strategy && m.Variant == c.Variant && m.Regime == c.Regime
			})
			if i < 0 {
				t.Fatalf("no main cell for %+v", c)
			}
			m := rep.Cells[i]
			if m.Pools != c.Pools || m.Eta != c.Eta || m.Regret != c.Regret {
				t.Errorf("r = 0 %s/%s α=%v %s: η %v R̃ %v over %d; main %v %v over %d", c.Mode, c.Strategy, c.Alpha, c.Regime, c.Eta, c.Regret, c.Pools, m.Eta, m.Regret, m.Pools)
			}
		}
	})

	// Resuming computes nothing; a changed ratio computes only its cells.
	calls := srv.Count()
	step.Run(t, "resuming computes nothing", func(t *testing.T) {
		env2, _, logs2 := testEnv(nil)
		if err := Run(ctx, []string{"run", "--progress", "off", cfgPath}, env2); err != nil {
			t.Fatal(err)
		}
		if srv.Count() != calls || !strings.Contains(logs2.String(), "run complete: 480 cells (480 fresh from before, 0 stale recomputed") {
			t.Errorf("resumed run made %d calls:\n%s", srv.Count()-calls, logs2)
		}
	})
	step.Run(t, "a changed ratio computes only its cells", func(t *testing.T) {
		write(t, "run.yaml", config("[0, 0.6, 0.5, 0.75, 1]"))
		env3, _, logs3 := testEnv(nil)
		if err := Run(ctx, []string{"run", "--progress", "off", cfgPath}, env3); err != nil {
			t.Fatal(err)
		}
		// 80 new cells (2 solvers × 10 pools × 2 α × 2 strategies), 40 of them
		// llm: one planning call each (r = 0.6 injects 6 of 10, which no other
		// ratio does, so the response cache has none of their prompts).
		if got := srv.Count() - calls; got != 40 || !strings.Contains(logs3.String(), "run complete: 480 cells (400 fresh from before, 0 stale recomputed") {
			t.Errorf("after changing one ratio: %d calls, want 40:\n%s", got, logs3)
		}
	})
}

// storedPlanOf reads a cell's stored planner response.
func storedPlanOf(t *testing.T, rs runstore.Store, key string) *triagev1.CreatePlanResponse {
	t.Helper()
	stored, found, err := rs.Plan(context.Background(), key)
	if err != nil || !found {
		t.Fatalf("%s: not stored (%v)", key, err)
	}
	var resp triagev1.CreatePlanResponse
	if err := protojson.Unmarshal(stored.Plan, &resp); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return &resp
}

// recomputeDW computes D and W of SPEC §5 from a stored plan: the first
// step of each pool problem counts, S is the problems given a positive
// allocation, U the injected ones.
func recomputeDW(plan *triagev1.CreatePlanResponse, injected map[string]bool) (d float64, dOK bool, w float64) {
	alloc := map[string]int64{}
	for _, st := range plan.GetParsed().GetPlan() {
		if _, inPool := injected[st.GetId()]; !inPool {
			continue
		}
		if _, seen := alloc[st.GetId()]; !seen {
			alloc[st.GetId()] = st.GetTokens()
		}
	}
	var u, left int
	var total, wasted float64
	for id, unsolvable := range injected {
		a := alloc[id]
		if a > 0 {
			total += float64(a)
			if unsolvable {
				wasted += float64(a)
			}
		}
		if unsolvable {
			u++
			if a <= 0 {
				left++
			}
		}
	}
	if total > 0 {
		w = wasted / total
	}
	if u > 0 {
		return float64(left) / float64(u), true, w
	}
	return 0, false, w
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
