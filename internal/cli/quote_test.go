package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/runs/quote"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
	"github.com/triage-eval/triage/internal/testkit/step"
)

// quoteModel answers every AIME problem right in 100·k output tokens
// (k its 1-based position), every plan with 50 tokens per problem, every
// budget-aware prompt right in 40 tokens: nothing fails, so a full study
// leaves nothing to do.
type quoteModel struct{ aime *aimeModel }

func (m quoteModel) reply(i int, r llmtest.Recorded) llmtest.Reply {
	q := fakemodel.Parse(r)
	prompt := q.Prompt()
	if q.IsProbe() || len(fakemodel.PlannerIDs(prompt)) > 0 {
		return m.aime.reply(i, r)
	}
	for text, answer := range m.aime.answers {
		if strings.Contains(prompt, text) {
			tokens := 100 * m.aime.order[text]
			if bannerRE.MatchString(prompt) {
				tokens = 40
			}
			return llmtest.VLLM(llmtest.Completion{Content: `\boxed{` + answer + `}`, PromptTokens: 200, CompletionTokens: tokens})
		}
	}
	return llmtest.BadRequest("unknown problem")
}

// quoteStudy is a small study: 30 AIME problems, one solver, pools of 15,
// α ∈ {0.5, 1}, the llm strategy, a priced endpoint with an output bound.
type quoteStudy struct {
	dir, cfg string
	probs    []problems.Problem
	srv      *llmtest.Server
	env      Env
	out, log interface{ String() string }
	// batch makes the study's Phase 0 use the Batch API (newCappedStudy);
	// samples is its baseline.samples (setCap; 0 means 1).
	batch   bool
	samples int
}

func newQuoteStudy(t *testing.T) *quoteStudy {
	t.Helper()
	return newQuoteStudyIn(t, t.TempDir())
}

// newQuoteStudyIn is newQuoteStudy with its files in dir.
func newQuoteStudyIn(t *testing.T, dir string) *quoteStudy {
	t.Helper()
	env, out, logs := testEnv(nil)
	s := &quoteStudy{dir: dir, cfg: filepath.Join(dir, "run.yaml"), env: env, out: out, log: logs}
	problemsFile := filepath.Join(dir, "aime.jsonl")
	if err := Run(context.Background(), []string{"import", "aime", "--out", problemsFile, benchdata.Path(t, "aime/aime2024.jsonl")}, env); err != nil {
		t.Fatalf("import: %v\n%s", err, logs)
	}
	var err error
	if s.probs, err = problems.ReadFile(problemsFile); err != nil {
		t.Fatal(err)
	}
	aime := &aimeModel{answers: map[string]string{}, order: map[string]int{}, solves: map[string]int{}}
	for k, p := range s.probs {
		var g struct{ Answer string }
		_ = json.Unmarshal(p.Grading, &g)
		aime.answers[p.Text], aime.order[p.Text] = g.Answer, k+1
	}
	s.srv = llmtest.NewServer(t, llmtest.WithHandler(quoteModel{aime}.reply))
	for name, content := range map[string]string{
		"endpoints.json": `{"q": {"base_url": "` + s.srv.URL() + `", "model": "qwen3-8b", "mode": "extended", "family": "qwen",
  "max_attempts": 2, "timeout": "5s", "max_output_tokens": 4000, "api_key_env": "Q_KEY",
  "price": {"input_per_mtok": 1, "output_per_mtok": 2}}}`,
		"run.yaml": `name: quote
run_store: run.db
ground_truth_store: gt.db
problems: [aime.jsonl]
endpoints: endpoints.json
llm_cache: llm-cache.db
solvers: [{model: qwen3-8b, mode: extended, endpoint: q}]
pool_size: 15
alphas: [0.5, 1]
strategies: [llm]
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// quote runs triage quote --json (with flags) and returns its rows by
// phase.
// existingStores says which of the study's store files exist.
func (s *quoteStudy) existingStores() map[string]bool {
	out := map[string]bool{}
	for _, name := range []string{"gt.db", "run.db", "llm-cache.db"} {
		if _, err := os.Stat(filepath.Join(s.dir, name)); err == nil {
			out[name] = true
		}
	}
	return out
}

func (s *quoteStudy) quote(t *testing.T, flags ...string) map[quote.Phase]quote.Row {
	t.Helper()
	env, out, logs := testEnv(nil) // no Q_KEY: a quote needs no API key
	before, stores := s.srv.Count(), s.existingStores()
	if err := Run(context.Background(), append(append([]string{"quote", "--json"}, flags...), s.cfg), env); err != nil {
		t.Fatalf("quote: %v\n%s", err, logs)
	}
	if s.srv.Count() != before {
		t.Errorf("the quote called the model %d times", s.srv.Count()-before)
	}
	for name := range s.existingStores() {
		if !stores[name] {
			t.Errorf("the quote created %s: a quote reads stores, it writes none", name)
		}
	}
	var q quote.Quote
	if err := json.Unmarshal([]byte(out.String()), &q); err != nil {
		t.Fatalf("quote output: %v\n%s", err, out)
	}
	rows := map[quote.Phase]quote.Row{}
	for _, r := range q.Rows {
		if r.Endpoint != "q" {
			t.Errorf("row of endpoint %q", r.Endpoint)
		}
		rows[r.Phase] = r
	}
	return rows
}

func (s *quoteStudy) run(t *testing.T, args ...string) {
	t.Helper()
	env, _, logs := testEnv(map[string]string{"Q_KEY": "k"})
	if err := Run(context.Background(), append(append(args[:1:1], "--progress", "off"), append(args[1:], s.cfg)...), env); err != nil {
		t.Fatalf("%s: %v\n%s", args[0], err, logs)
	}

}

// TestQuoteFollowsTheStudy quotes a study before, between and after its
// phases: the counts drop as the stores and the cache fill, and a quote
// after the full study says 0 calls.
func TestQuoteFollowsTheStudy(t *testing.T) {
	s := newQuoteStudy(t)
	var phase0Input int64
	for _, p := range s.probs {
		req, err := solving.Request(p, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		phase0Input += llm.EstimateTokens(req)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	step.Run(t, "before anything", func(t *testing.T) {
		rows := s.quote(t)
		p0, p1 := rows[quote.Baseline], rows[quote.Planning]
		if p0.Calls != 30 || p0.Cached != 0 || p0.InputTokens != phase0Input || p0.MaxOutputTokens != 30*4000 || p0.HasExpected {
			t.Errorf("phase 0 = %+v, want 30 calls, %d input tokens, 120000 max output, no expectation", p0, phase0Input)
		}
		if p0.MaxDollars == nil || !near(*p0.MaxDollars, (float64(phase0Input)*1+120000*2)/1e6) {
			t.Errorf("phase 0 max dollars = %v", p0.MaxDollars)
		}
		// 2 pools × 2 α, not final before Phase 0.
		if p1.Calls != 4 || p1.Provisional != 4 || p1.MaxOutputTokens != 4*4000 {
			t.Errorf("phase 1 = %+v, want 4 provisional calls", p1)
		}
		if r, ok := rows[quote.Resolve]; ok && r.Calls != 0 {
			t.Errorf("re-solve before any plan = %+v", r)
		}
	})
	step.Run(t, "after the baseline", func(t *testing.T) {
		s.run(t, "baseline")
		rows := s.quote(t)
		p0, p1 := rows[quote.Baseline], rows[quote.Planning]
		if p0.Calls != 0 || p0.InputTokens != 0 {
			t.Errorf("phase 0 after the baseline = %+v, want 0 calls", p0)
		}
		if p1.Calls != 4 || p1.Provisional != 0 || !p1.HasExpected {
			t.Errorf("phase 1 = %+v, want 4 final calls with an expectation", p1)
		}
		// Expected: per α, each pool's mean Phase 0 cost (100·k over its
		// items): the pools' means add up to the mean of the two pools'.
		if p1.ExpectedOutputTokens <= 0 || p1.ExpectedOutputTokens > 4*3000 {
			t.Errorf("phase 1 expected output = %d", p1.ExpectedOutputTokens)
		}
		if p1.ExpectedDollars == nil || !near(*p1.ExpectedDollars, (float64(p1.InputTokens)+2*float64(p1.ExpectedOutputTokens))/1e6) {
			t.Errorf("phase 1 expected dollars = %v", p1.ExpectedDollars)
		}
	})
	step.Run(t, "after the grid", func(t *testing.T) {
		s.run(t, "run")
		rows := s.quote(t)
		if p1 := rows[quote.Planning]; p1.Calls != 0 {
			t.Errorf("phase 1 after the run = %+v, want 0 calls", p1)
		}
		r := rows[quote.Resolve]
		// Every α = 1 plan gives each of its 15 problems 50 tokens.
		if r.Calls != 30 || !r.HasExpected || r.ExpectedOutputTokens != sumCapped(30, 4000) {
			t.Errorf("re-solve = %+v, want 30 calls expecting their Phase 0 costs (%d)", r, sumCapped(30, 4000))
		}
	})
	step.Run(t, "after the re-solve", func(t *testing.T) {
		s.run(t, "budget-aware")
		for phase, r := range s.quote(t) {
			if r.Calls != 0 || r.InputTokens != 0 || (r.MaxDollars != nil && *r.MaxDollars != 0) {
				t.Errorf("%s after the full study = %+v, want nothing to do", phase, r)
			}
		}
	})
	step.Run(t, "from the cache alone", func(t *testing.T) {
		// A fresh run store: the grid and the re-solve start over, but the
		// cache answers every planner call — the quote computes the keys
		// the Planner does.
		if err := os.Remove(filepath.Join(s.dir, "run.db")); err != nil {
			t.Fatal(err)
		}
		rows := s.quote(t)
		if p1 := rows[quote.Planning]; p1.Calls != 0 || p1.Cached != 4 {
			t.Errorf("phase 1 with a fresh run store = %+v, want 4 cached, 0 calls", p1)
		}
		// A fresh ground-truth store: the cache answers every solve.
		if err := os.Remove(filepath.Join(s.dir, "gt.db")); err != nil {
			t.Fatal(err)
		}
		if p0 := s.quote(t)[quote.Baseline]; p0.Calls != 0 || p0.Cached != 30 {
			t.Errorf("phase 0 with a fresh ground-truth store = %+v, want 30 cached, 0 calls", p0)
		}
	})
}

// sumCapped is Σ min(100·k, limit) for k = 1 … n.
func sumCapped(n int, limit int64) int64 {
	var s int64
	for k := 1; k <= n; k++ {
		s += min(int64(100*k), limit)
	}
	return s
}

func TestQuoteBadConfig(t *testing.T) {
	tests := []struct {
		name, config, endpoints, want string
	}{
		{"unknown key", "run_store: r.db\ncolour: red\n", `{}`, "colour"},
		{"bad price", "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nendpoints: e.json\nsolvers: [{model: m, mode: standard, endpoint: e}]\n",
			`{"e": {"base_url": "http://h/v1", "model": "m", "mode": "standard",
  "price": {"input_per_mtok": -2}}}`, "e.json:2: e.price.input_per_mtok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range map[string]string{"run.yaml": tt.config, "e.json": tt.endpoints, "p.jsonl": `{"id": "1", "dataset": "d", "text": "t", "grading": {"kind": "math", "answer": "1"}}` + "\n"} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env, _, _ := testEnv(nil)
			err := Run(context.Background(), []string{"quote", filepath.Join(dir, "run.yaml")}, env)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("quote = %v, want an error naming %q", err, tt.want)
			}
		})
	}
}

// TestQuoteSamples quotes a baseline of k = 2 samples: each sample is a
// call with a cache key of its own, so a fresh ground-truth store after the
// baseline finds both in the cache.
func TestQuoteSamples(t *testing.T) {
	s := newQuoteStudy(t)
	raw, err := os.ReadFile(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.cfg, append(raw, "baseline: {samples: 2}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if p0 := s.quote(t)[quote.Baseline]; p0.Calls != 60 || p0.Cached != 0 {
		t.Errorf("phase 0 of 2 samples = %+v, want 60 calls", p0)
	}
	s.run(t, "baseline")
	if p0 := s.quote(t)[quote.Baseline]; p0.Calls != 0 {
		t.Errorf("phase 0 after the baseline = %+v, want 0 calls", p0)
	}
	if err := os.Remove(filepath.Join(s.dir, "gt.db")); err != nil {
		t.Fatal(err)
	}
	if p0 := s.quote(t)[quote.Baseline]; p0.Calls != 0 || p0.Cached != 60 {
		t.Errorf("phase 0 with a fresh ground-truth store = %+v, want 60 cached, 0 calls", p0)
	}
}
