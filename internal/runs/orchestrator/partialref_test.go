package orchestrator_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/partialref"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/pools"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/report"
)

// partialStrategies is the strategies line of the partial-reference tests:
// the llm strategy, one Planner reference and the three partial-information
// references.
const partialStrategies = "strategies: [llm, all_in_order, population, self_feasibility, self_cost]"

// truthRec is one solver's ground truth on one problem, as the fixture
// writes it.
type truthRec struct {
	cost      int64
	correct   bool
	gradeable bool
}

// fixtureTruth returns the ground truth writeFixture writes for model m
// (modes standard and extended) and, with second, what writeSecondModel
// writes for model n (standard): solver "model/mode" → problem id → record.
func fixtureTruth(second bool) map[string]map[string]truthRec {
	out := map[string]map[string]truthRec{"m/standard": {}, "m/extended": {}}
	if second {
		out["n/standard"] = map[string]truthRec{}
	}
	for _, d := range []string{"alpha", "beta"} {
		for i := range 12 {
			id := fmt.Sprintf("%s-%02d", d, i)
			for _, s := range []string{"standard", "extended"} {
				gradeable := !(d == "beta" && i == 3 && s == "standard")
				cost := int64(300 + 97*i)
				if s == "extended" {
					cost *= 2
				}
				out["m/"+s][id] = truthRec{cost: cost, correct: gradeable && (i%3 != 0 || s == "extended"), gradeable: gradeable}
			}
			if second {
				out["n/standard"][id] = secondModel(d, i)
			}
		}
	}
	return out
}

// secondModel is model n's ground truth on problem i of dataset d: other
// costs and outcomes than m's, and beta-05 ungradeable.
func secondModel(d string, i int) truthRec {
	gradeable := !(d == "beta" && i == 5)
	cost := int64(0)
	if gradeable {
		cost = int64(200 + 131*((i*7)%12))
	}
	return truthRec{cost: cost, correct: gradeable && i%2 == 0, gradeable: gradeable}
}

// writeSecondModel writes the fixture and adds model n (standard, planned by the standard
// endpoint) to the fixture's ground truth and solvers, and sets the
// strategies to partialStrategies.
func writeSecondModel(t *testing.T, dir, llmURL string) *orchestrator.Config {
	t.Helper()
	writeFixture(t, dir, llmURL)
	f, err := os.OpenFile(filepath.Join(dir, "gt.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"alpha", "beta"} {
		for i := range 12 {
			r := secondModel(d, i)
			fmt.Fprintf(f, `{"model":"n","mode":"standard","dataset":"%s","problem_id":"%s-%02d","cost":%d,"correct":%v,"gradeable":%v,"measured_at":"2026-01-01T00:00:00Z"}`+"\n",
				d, d, i, r.cost, r.correct, r.gradeable)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run.yaml")
	editFile(t, run, "  - {model: m, mode: extended, endpoint: m-ext}\n", "  - {model: m, mode: extended, endpoint: m-ext}\n  - {model: n, mode: standard, endpoint: m-std}\n")
	editFile(t, run, "strategies: [llm, random, all_in_order]", partialStrategies)
	cfg, err := orchestrator.LoadConfig(run)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// expectedPlans is what partialref plans for a solver's pool from the
// fixture's ground truth, the population chosen here: every other solver
// whose model differs (leave-model-out), in config order.
func expectedPlans(t *testing.T, truth map[string]map[string]truthRec, solvers []string, solver string, ids []string, budget int64) partialref.Plans {
	t.Helper()
	var items []pool.Item
	var population [][]partialref.Record
	for _, id := range ids {
		own := truth[solver][id]
		if !own.gradeable {
			continue
		}
		items = append(items, pool.Item{ID: id, Cost: own.cost, Correct: own.correct, Value: 1})
		var recs []partialref.Record
		for _, other := range solvers {
			if strings.Split(other, "/")[0] == strings.Split(solver, "/")[0] {
				continue
			}
			if r := truth[other][id]; r.gradeable {
				recs = append(recs, partialref.Record{Cost: r.cost, Correct: r.correct})
			}
		}
		population = append(population, recs)
	}
	est, err := partialref.Estimate(items, population)
	if err != nil {
		t.Fatal(err)
	}
	return est.Plans(budget)
}

// TestPartialReferencesInTheGrid runs two models: every partial-information
// cell is planned by the Oracle from the other model's ground truth,
// executed, scored with losses and diagnostics, and stored with its plan.
func TestPartialReferencesInTheGrid(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	cfg := writeSecondModel(t, dir, srv.URL())
	rs := runOnce(t, cfg)
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	truth := fixtureTruth(true)
	solvers := []string{"m/standard", "m/extended", "n/standard"}
	partitions := map[string][]pools.Pool{}
	for _, d := range []string{"alpha", "beta"} {
		var ids []string
		for i := range 12 {
			ids = append(ids, fmt.Sprintf("%s-%02d", d, i))
		}
		if partitions[d], err = pools.Partition(d, ids, cfg.PoolSize, cfg.PartitionSeed); err != nil {
			t.Fatal(err)
		}
	}
	// 3 solvers × 2 datasets × 3 pools × 2 α × 3 references × 2 regimes.
	const want = 3 * 2 * 3 * 2 * 3 * 2
	checked, withLosses, steps := 0, 0, 0
	for _, r := range res.Records {
		s := vocab.Strategy(r.Strategy)
		if !s.PartialReference() {
			continue
		}
		checked++
		if r.Excluded != "" || r.Eta == nil || r.Variant != string(vocab.NoVariant) {
			t.Errorf("partial reference record not scored: %+v", r)
			continue
		}
		if r.Oracle > 0 {
			if r.PlannedValue == nil || r.Selection == nil || r.Order == nil || r.Enforcement == nil {
				t.Errorf("record with V_oracle > 0 has no losses: %+v", r)
			} else {
				withLosses++
			}
		}
		if r.Oracle > 0 && r.Recall == nil {
			t.Errorf("record with V_oracle > 0 has no recall: %+v", r)
		}
		if r.Regime != "U" {
			continue
		}
		// The stored plan is the Oracle's, for this strategy, and the one
		// the population chosen by hand gives.
		solver := r.Model + "/" + r.Mode
		key := orchestrator.CellKey(orchestrator.Solver{Model: r.Model, Mode: r.Mode}, r.Dataset, r.Pool, r.Alpha, s, vocab.NoVariant)
		stored, found, err := rs.Plan(context.Background(), key)
		if err != nil || !found {
			t.Fatalf("plan of %s: found %v, %v", key, found, err)
		}
		var plan triagev1.PartialReferencePlan
		if err := protojson.Unmarshal(stored.Plan, &plan); err != nil {
			t.Fatalf("stored plan of %s: %v\n%s", key, err, stored.Plan)
		}
		if len(plan.GetPlan()) > 0 && (r.Precision == nil || r.CostForecast == nil) {
			t.Errorf("record of a plan of %d steps without precision or cost forecast: %+v", len(plan.GetPlan()), r)
		}
		if got, _ := protoconv.PartialReference(plan.GetReference()); got != s {
			t.Errorf("%s: stored plan says %v", key, plan.GetReference())
		}
		wantPlan := expectedPlans(t, truth, solvers, solver, partitions[r.Dataset][r.Pool].ProblemIDs, r.Budget)[s]
		steps += len(plan.GetPlan())
		var got []string
		for _, st := range plan.GetPlan() {
			got = append(got, fmt.Sprintf("%s:%d", st.GetId(), st.GetTokens()))
		}
		var exp []string
		for _, st := range wantPlan {
			exp = append(exp, fmt.Sprintf("%s:%d", st.ID, st.Tokens))
		}
		if strings.Join(got, " ") != strings.Join(exp, " ") {
			t.Errorf("%s: plan %v, want %v", key, got, exp)
		}
	}
	if checked != want {
		t.Errorf("%d partial reference records, want %d", checked, want)
	}
	if withLosses == 0 || steps == 0 {
		t.Errorf("%d records with losses, %d plan steps: the fixture should give some of each", withLosses, steps)
	}
}

// TestPartialReferencesFollowThePopulation: re-measuring one item of model
// n makes stale n's cells of that pool and the partial-information cells
// of m's solvers on it, and nothing else.
func TestPartialReferencesFollowThePopulation(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	cfg := writeSecondModel(t, dir, srv.URL())
	runOnce(t, cfg)
	total := 3 * 2 * 3 * 2 * 6 // solvers × datasets × pools × α × (2 llm variants + 4)
	r := secondModel("alpha", 4)
	editFile(t, filepath.Join(dir, "gt.jsonl"),
		fmt.Sprintf(`"model":"n","mode":"standard","dataset":"alpha","problem_id":"alpha-04","cost":%d`, r.cost),
		fmt.Sprintf(`"model":"n","mode":"standard","dataset":"alpha","problem_id":"alpha-04","cost":%d`, r.cost+1000))
	rs, p, err := runWith(t, cfg, orchestrator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// n's group: 2 α × 6 cells; m's two solvers: 2 α × 3 partial cells each.
	const stale = 2*6 + 2*2*3
	if p.Stale.Load() != stale || p.Skipped.Load() != int64(total-stale) {
		t.Errorf("stale %d, resumed %d; want %d stale, %d resumed", p.Stale.Load(), p.Skipped.Load(), stale, total-stale)
	}
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Freshness; f.Fresh != total || f.Stale != 0 {
		t.Errorf("freshness after the resumed run: %+v", f)
	}
}

// TestOneModelHasNoPopulation: in a run of one model (two modes) the
// partial-information references have no population: excluded as
// no_population, with their references, and counted so in the report.
func TestOneModelHasNoPopulation(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	writeFixture(t, dir, srv.URL())
	run := filepath.Join(dir, "run.yaml")
	editFile(t, run, "strategies: [llm, random, all_in_order]", partialStrategies)
	cfg, err := orchestrator.LoadConfig(run)
	if err != nil {
		t.Fatal(err)
	}
	rs := runOnce(t, cfg)
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	excluded := 0
	for _, r := range res.Records {
		partial := vocab.Strategy(r.Strategy).PartialReference()
		switch {
		case partial && r.Excluded == string(metrics.ExcludedNoPopulation):
			excluded++
			if r.Eta != nil || r.Budget == 0 || r.Oracle == 0 && r.Alpha == 1 {
				t.Errorf("no_population record %+v: want no η, the budget and the references", r)
			}
		case partial:
			t.Errorf("partial reference record %+v, want no_population", r)
		case r.Excluded != "":
			t.Errorf("record excluded: %+v", r)
		}
	}
	// 2 solvers × 2 datasets × 3 pools × 2 α × 3 references × 2 regimes.
	if want := 2 * 2 * 3 * 2 * 3 * 2; excluded != want {
		t.Errorf("%d no_population records, want %d", excluded, want)
	}
	rep := report.Build(res.Records, res.Accuracy)
	cells := 0
	for _, c := range rep.Cells {
		if !c.Strategy.PartialReference() {
			continue
		}
		cells++
		if len(c.Excluded) != 1 || c.Excluded[0].Reason != metrics.ExcludedNoPopulation || c.Excluded[0].Count != c.Pools || c.Eta.N != 0 {
			t.Errorf("report cell %s/%s %s α=%g %s %s: excluded %v of %d pools", c.Model, c.Mode, c.Dataset, c.Alpha, c.Strategy, c.Regime, c.Excluded, c.Pools)
		}
	}
	if cells == 0 {
		t.Error("the report has no partial-reference cell")
	}
}
