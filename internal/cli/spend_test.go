package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/quote"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
	"github.com/triage-eval/triage/internal/testkit/step"
)

// Prices of the capped study: $0.01 per million input tokens, $1 per
// million output tokens; every solve reports 200 prompt tokens and uses
// its whole bound (4000 output tokens), every plan 900 and 60. Input is
// cheap so that prompts of different lengths cost nearly the same bound.
const (
	capInputPrice, capOutputPrice = 0.01, 1.0
	solveDollars                  = (200*capInputPrice + 4000*capOutputPrice) / 1e6
	planDollars                   = (900*capInputPrice + 60*capOutputPrice) / 1e6
)

// cappedStudy is quoteStudy with a model whose solves cost their bound
// and a config with a spend cap and one cell at a time.
func cappedStudy(t *testing.T) *quoteStudy { return newCappedStudy(t, false) }

// newCappedStudy is cappedStudy; with batch, its endpoint offers the Batch
// API (batches complete at the first poll) and Phase 0 uses it.
func newCappedStudy(t *testing.T, batch bool) *quoteStudy {
	s := newQuoteStudy(t)
	s.batch = batch
	aime := studyModel(s)
	opts := []llmtest.Option{llmtest.WithHandler(func(i int, r llmtest.Recorded) llmtest.Reply {
		q := fakemodel.Parse(r)
		if q.IsProbe() || len(fakemodel.PlannerIDs(q.Prompt())) > 0 {
			return aime.reply(i, r)
		}
		for text, answer := range aime.answers {
			if strings.Contains(q.Prompt(), text) {
				return llmtest.VLLM(llmtest.Completion{Content: `\boxed{` + answer + `}`, PromptTokens: 200, CompletionTokens: 4000})
			}
		}
		return llmtest.BadRequest("unknown problem")
	})}
	if batch {
		opts = append(opts, llmtest.WithBatch(llmtest.BatchBehavior{Validating: time.Nanosecond, InProgress: time.Nanosecond, Finalizing: time.Nanosecond}))
	}
	s.srv = llmtest.NewServer(t, opts...)
	s.write(t, "endpoints.json", fmt.Sprintf(`{"q": {"base_url": "%s", "model": "qwen3-8b", "mode": "extended", "family": "qwen",
  "max_attempts": 2, "timeout": "5s", "max_output_tokens": 4000, "api_key_env": "Q_KEY", "batch": %v,
  "price": {"input_per_mtok": %v, "output_per_mtok": %v}}}`, s.srv.URL(), batch, capInputPrice, capOutputPrice))
	return s
}

// quoteAnswers maps each problem's text to its answer.
func quoteAnswers(s *quoteStudy) map[string][1]string {
	out := map[string][1]string{}
	for _, p := range s.probs {
		var g struct{ Answer string }
		_ = json.Unmarshal(p.Grading, &g)
		out[p.Text] = [1]string{g.Answer}
	}
	return out
}

// studyModel is an aimeModel knowing the study's answers, in the order
// quoteAnswers gives them.
func studyModel(s *quoteStudy) *aimeModel {
	aime := &aimeModel{answers: map[string]string{}, order: map[string]int{}, solves: map[string]int{}}
	for text, a := range quoteAnswers(s) {
		aime.answers[text], aime.order[text] = a[0], len(aime.order)+1
	}
	return aime
}

func (s *quoteStudy) write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(s.dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// setCap writes the study's config with spend.cap_usd = c.
func (s *quoteStudy) setCap(t *testing.T, c float64) {
	t.Helper()
	s.write(t, "run.yaml", fmt.Sprintf(`name: capped
run_store: run.db
ground_truth_store: gt.db
problems: [aime.jsonl]
endpoints: endpoints.json
llm_cache: llm-cache.db
solvers: [{model: qwen3-8b, mode: extended, endpoint: q}]
pool_size: 15
alphas: [0.5, 1]
strategies: [llm]
concurrency: 1
baseline: {concurrency: 1, batch: %v, samples: %d}
spend: {cap_usd: %v}
`, s.batch, max(s.samples, 1), c))
}

// capped runs a command that must stop at the cap.
func (s *quoteStudy) capped(t *testing.T, command string) *orchestrator.SpendCapError {
	t.Helper()
	env, _, logs := testEnv(map[string]string{"Q_KEY": "k"})
	err := Run(context.Background(), []string{command, "--progress", "off", s.cfg}, env)
	var capErr *orchestrator.SpendCapError
	if !errors.As(err, &capErr) {
		t.Fatalf("%s under the cap: %v, want a SpendCapError\n%s", command, err, logs)
	}
	if msg := err.Error(); !strings.Contains(msg, "Raise spend.cap_usd in "+s.cfg) || !strings.Contains(msg, "spent") {
		t.Errorf("the cap error does not say how much was spent and how to go on: %s", msg)
	}
	return capErr
}

func (s *quoteStudy) spend(t *testing.T) map[string]runstore.SpendRow {
	t.Helper()
	out := map[string]runstore.SpendRow{}
	for _, r := range s.spendRows(t) {
		out[r.Phase] = r
	}
	return out
}

// spendRows are the run store's spend rows, per phase and endpoint.
func (s *quoteStudy) spendRows(t *testing.T) []runstore.SpendRow {
	t.Helper()
	rs, err := runstore.Open(context.Background(), filepath.Join(s.dir, "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	rows, err := rs.Spend(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func groundTruthCount(t *testing.T, path string) int {
	t.Helper()
	st, err := groundtruth.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	page, err := st.List(context.Background(), groundtruth.ListQuery{PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	return len(page.Records)
}

func nearDollars(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestSpendCap runs a study under a cap that allows 3 solves: the baseline
// stops before the fourth, exits with the cap's error, and resumes when
// the cap is raised; then a cap that allows one planner call stops the grid
// before the second. Spend stored is the usage times the prices.
func TestSpendCap(t *testing.T) {
	s := cappedStudy(t)
	s.setCap(t, 1)
	pessimistic := func(phase quote.Phase) float64 {
		r := s.quote(t)[phase]
		return *r.MaxDollars / float64(r.Calls)
	}
	// Solve prompts differ in length by a few tokens: a cap of 3.5 of them
	// holds 3 and refuses a fourth.
	solve := pessimistic(quote.Baseline)
	step.Run(t, "the baseline stops before the fourth call", func(t *testing.T) {
		s.setCap(t, 3.5*solve)
		before := s.srv.Count()
		e := s.capped(t, "baseline")
		if got := s.srv.Count() - before; got != 1+3 { // the endpoint check, then 3 solves
			t.Errorf("%d requests under the cap, want 4 (check + 3 solves)", got)
		}
		if n := groundTruthCount(t, filepath.Join(s.dir, "gt.db")); n != 3 {
			t.Errorf("%d records stored, want 3", n)
		}
		if !nearDollars(e.Spent, 3*solveDollars) || e.Next <= 0 {
			t.Errorf("cap error says spent $%v, next $%v; want $%v spent", e.Spent, e.Next, 3*solveDollars)
		}
		if r := s.spend(t)["phase0_baseline"]; r.Calls != 3 || r.InputTokens != 600 || r.OutputTokens != 12000 || !nearDollars(r.Dollars, 3*(200*capInputPrice+4000*capOutputPrice)/1e6) {
			t.Errorf("spend stored = %+v, want 3 calls of 200 + 4000 tokens, $%v", r, 3*solveDollars)
		}
	})
	step.Run(t, "raising the cap resumes the baseline", func(t *testing.T) {
		s.setCap(t, 1)
		s.run(t, "baseline")
		if n := groundTruthCount(t, filepath.Join(s.dir, "gt.db")); n != 30 {
			t.Errorf("%d records stored, want 30", n)
		}
		if r := s.spend(t)["phase0_baseline"]; r.Calls != 30 || !nearDollars(r.Dollars, 30*solveDollars) {
			t.Errorf("spend stored = %+v, want 30 calls, $%v", r, 30*solveDollars)
		}
	})
	step.Run(t, "the grid stops before its second planner call", func(t *testing.T) {
		// Room for one pessimistic planner call and half an actual one: the
		// first call fits; after it settles (at far less than its bound),
		// the second does not.
		plan := pessimistic(quote.Planning)
		s.setCap(t, 30*solveDollars+plan+planDollars/2)
		s.capped(t, "run")
		if r := s.spend(t)["phase1_planning"]; r.Calls != 1 || r.InputTokens != 900 || r.OutputTokens != 60 || !nearDollars(r.Dollars, planDollars) {
			t.Errorf("planning spend = %+v, want one call of 900 + 60 tokens, $%v", r, planDollars)
		}
		s.setCap(t, 1)
		s.run(t, "run")
		if r := s.spend(t)["phase1_planning"]; r.Calls != 4 || !nearDollars(r.Dollars, 4*planDollars) {
			t.Errorf("planning spend after raising the cap = %+v, want 4 calls", r)
		}
		if q := s.quote(t)[quote.Planning]; q.Calls != 0 {
			t.Errorf("quote after the grid: %+v", q)
		}
	})
	step.Run(t, "the re-solve stops at the cap and resumes", func(t *testing.T) {
		resolve := pessimistic(quote.Resolve)
		spent := 0.0
		for _, r := range s.spend(t) {
			spent += r.Dollars
		}
		// Room for one re-solve's bound and no more: each costs its bound.
		s.setCap(t, spent+1.5*resolve)
		s.capped(t, "budget-aware")
		if r := s.spend(t)["budget_aware_resolve"]; r.Calls != 1 {
			t.Errorf("re-solve spend under the cap = %+v, want 1 call", r)
		}
		s.setCap(t, 1)
		s.run(t, "budget-aware")
		if r := s.spend(t)["budget_aware_resolve"]; r.Calls != 30 || !nearDollars(r.Dollars, 30*solveDollars) {
			t.Errorf("re-solve spend after raising the cap = %+v, want 30 calls, $%v", r, 30*solveDollars)
		}
	})
	step.Run(t, "the report's spend", func(t *testing.T) {
		env, out, logs := testEnv(nil)
		if err := Run(context.Background(), []string{"report", s.cfg}, env); err != nil {
			t.Fatalf("report: %v\n%s", err, logs)
		}
		if !strings.Contains(out.String(), "## Spend") || !strings.Contains(out.String(), "spend.md, spend.csv") {
			t.Errorf("the report's summary has no spend:\n%s", out)
		}
		page, err := os.ReadFile(filepath.Join(s.dir, "run.db.report", "report.html"))
		if err != nil || !strings.Contains(string(page), `id="spend"`) {
			t.Errorf("report.html has no Spend section (%v)", err)
		}
		raw, err := os.ReadFile(filepath.Join(s.dir, "run.db.report", "spend.csv"))
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("phase,endpoint,calls,input tokens,output tokens,dollars\nbudget_aware_resolve,q,30,6000,120000,%v\nphase0_baseline,q,30,6000,120000,%v\nphase1_planning,q,4,3600,240,%v\n",
			strconvDollars(30*solveDollars), strconvDollars(30*solveDollars), strconvDollars(4*planDollars))
		if got := string(raw); !sameCSV(got, want) {
			t.Errorf("spend.csv =\n%s\nwant\n%s", got, want)
		}
	})
	step.Run(t, "a cap needs prices and bounds", func(t *testing.T) {
		s.write(t, "endpoints.json", fmt.Sprintf(`{"q": {"base_url": "%s", "model": "qwen3-8b", "mode": "extended", "family": "qwen"}}`, s.srv.URL()))
		env, _, _ := testEnv(map[string]string{"Q_KEY": "k"})
		err := Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env)
		if err == nil || !strings.Contains(err.Error(), `endpoint "q" has no price`) {
			t.Errorf("a capped baseline on an unpriced endpoint: %v", err)
		}
	})
}

func strconvDollars(d float64) string { return fmt.Sprintf("%.6f", d) }

// sameCSV compares spend CSVs with dollars to 6 decimals (sums of
// floating-point prices differ in the last bits).
func sameCSV(got, want string) bool {
	g, w := strings.Split(strings.TrimSpace(got), "\n"), strings.Split(strings.TrimSpace(want), "\n")
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		gf, wf := strings.Split(g[i], ","), strings.Split(w[i], ",")
		if len(gf) != len(wf) {
			return false
		}
		if i > 0 {
			var x float64
			if _, err := fmt.Sscan(gf[len(gf)-1], &x); err != nil {
				return false
			}
			gf[len(gf)-1] = strconvDollars(x)
		}
		if strings.Join(gf, ",") != strings.Join(wf, ",") {
			return false
		}
	}
	return true
}

// TestSpendCapBatched runs the capped study's baseline through the Batch
// API: the cap cuts the batch it submits to the calls it can pay for at
// their synchronous bound (3 of 30), the answers are billed at the batch
// price (half), and raising the cap sends the rest in one more batch.
func TestSpendCapBatched(t *testing.T) {
	s := newCappedStudy(t, true)
	batchDollars := solveDollars * llm.DefaultBatchFactor
	s.setCap(t, 3.5*solveDollars*1.001)
	before := s.srv.Count()
	s.capped(t, "baseline")
	if got := s.srv.Count() - before; got != 1 { // the endpoint check
		t.Errorf("%d synchronous requests, want 1 (the check)", got)
	}
	if n, b := groundTruthCount(t, filepath.Join(s.dir, "gt.db")), s.srv.BatchSubmissions(); n != 3 || b != 1 {
		t.Errorf("%d records stored from %d batches, want 3 from 1", n, b)
	}
	if r := s.spend(t)["phase0_baseline"]; r.Calls != 3 || r.InputTokens != 600 || r.OutputTokens != 12000 || !nearDollars(r.Dollars, 3*batchDollars) {
		t.Errorf("spend stored = %+v, want 3 calls of 200 + 4000 tokens at the batch price, $%v", r, 3*batchDollars)
	}
	s.setCap(t, 1)
	s.run(t, "baseline")
	if n, b := groundTruthCount(t, filepath.Join(s.dir, "gt.db")), s.srv.BatchSubmissions(); n != 30 || b != 2 {
		t.Errorf("%d records stored from %d batches, want 30 from 2", n, b)
	}
	if r := s.spend(t)["phase0_baseline"]; r.Calls != 30 || !nearDollars(r.Dollars, 30*batchDollars) {
		t.Errorf("spend stored = %+v, want 30 calls at the batch price, $%v", r, 30*batchDollars)
	}
	// A rerun answers from the cache: nothing is billed twice.
	s.run(t, "baseline", "--rerun")
	if r := s.spend(t)["phase0_baseline"]; r.Calls != 30 || !nearDollars(r.Dollars, 30*batchDollars) {
		t.Errorf("spend after a cached rerun = %+v, want it unchanged", r)
	}
}

// TestSpendCapSamples: with repeated samples a capped baseline reserves
// only the samples it will make. A study measured at k = 3 resumes under a
// cap with room for no call at all (it needs none), and raising k to 4
// needs room for the 30 new samples only, not for the 120 a problem-wise
// reservation would hold.
func TestSpendCapSamples(t *testing.T) {
	s := newCappedStudy(t, false)
	s.samples = 3
	s.setCap(t, 1)
	s.run(t, "baseline")
	spent := s.spend(t)["phase0_baseline"]
	if spent.Calls != 90 || !nearDollars(spent.Dollars, 90*solveDollars) {
		t.Fatalf("spend after k = 3: %+v, want 90 calls", spent)
	}
	s.setCap(t, spent.Dollars+0.5*solveDollars)
	s.run(t, "baseline") // nothing to make: nothing reserved, no cap error
	s.samples = 4
	s.setCap(t, spent.Dollars+30.5*solveDollars*1.001)
	s.run(t, "baseline")
	if r := s.spend(t)["phase0_baseline"]; r.Calls != 120 || !nearDollars(r.Dollars, 120*solveDollars) {
		t.Errorf("spend after raising k to 4 = %+v, want 120 calls", r)
	}
}

// TestSpendCapBillsEveryStoredCall runs two solvers' baselines in parallel
// under a cap with room for about ten solves: whichever solver meets the
// cap first, the other's calls under way finish, so when the command stops
// every record Phase 0 stored is a call the spend ledger billed, no more,
// no fewer.
func TestSpendCapBillsEveryStoredCall(t *testing.T) {
	s := newCappedStudy(t, false)
	// Two endpoints, two models: the twin's requests differ from the
	// first solver's, so neither is answered from the other's cache
	// (a cached answer costs nothing and is rightly not billed).
	s.write(t, "endpoints.json", fmt.Sprintf(`{
  "q": {"base_url": "%[1]s", "model": "qwen3-8b", "mode": "extended", "family": "qwen",
    "max_attempts": 2, "timeout": "5s", "max_output_tokens": 4000, "api_key_env": "Q_KEY",
    "price": {"input_per_mtok": %[2]v, "output_per_mtok": %[3]v}},
  "q2": {"base_url": "%[1]s", "model": "qwen3-8b-twin", "mode": "extended", "family": "qwen",
    "max_attempts": 2, "timeout": "5s", "max_output_tokens": 4000, "api_key_env": "Q_KEY",
    "price": {"input_per_mtok": %[2]v, "output_per_mtok": %[3]v}}}`, s.srv.URL(), capInputPrice, capOutputPrice))
	s.write(t, "run.yaml", fmt.Sprintf(`name: capped-two
run_store: run.db
ground_truth_store: gt.db
problems: [aime.jsonl]
endpoints: endpoints.json
llm_cache: llm-cache.db
solvers: [{model: qwen3-8b, mode: extended, endpoint: q}, {model: qwen3-8b-twin, mode: extended, endpoint: q2}]
pool_size: 15
alphas: [0.5]
strategies: [llm]
baseline: {concurrency: 2}
spend: {cap_usd: %v}
`, 10.5*solveDollars*1.001))
	s.capped(t, "baseline")
	stored := groundTruthCount(t, filepath.Join(s.dir, "gt.db"))
	var billed runstore.SpendRow
	for _, r := range s.spendRows(t) {
		billed.Calls += r.Calls
		billed.Dollars += r.Dollars
	}
	if stored == 0 || int64(stored) != billed.Calls || !nearDollars(billed.Dollars, float64(stored)*solveDollars) {
		t.Errorf("%d records stored, %+v billed: want every stored call billed once", stored, billed)
	}
	if billed.Dollars > 10.5*solveDollars*1.001 {
		t.Errorf("spent $%v past the $%v cap", billed.Dollars, 10.5*solveDollars)
	}
}
