package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/quote"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
	"github.com/triage-eval/triage/internal/testkit/step"
)

// The judged study's prices and usage: every solve but the last answers
// "two moles" (which matching cannot settle against "2 moles", so the
// answer goes to the judge) with 200 prompt and 1,000 output tokens on q;
// every
// verdict costs 300 prompt and 50 output tokens on j, whose output is
// dear, so that a judge's hold (its 100-token bound) outweighs a solve's.
const (
	judgedSolveDollars = (200*0.01 + 1000*1.0) / 1e6
	judgedJudgeDollars = (300*1.0 + 50*1000.0) / 1e6
	judgedProblems     = 4
)

// judgedStudy writes an exact-answer study graded by a judge endpoint
// under a spend cap of capUSD and returns it with its model server.
func judgedStudy(t *testing.T, capUSD float64) *quoteStudy {
	t.Helper()
	dir := t.TempDir()
	s := &quoteStudy{dir: dir, cfg: filepath.Join(dir, "run.yaml")}
	s.srv = llmtest.NewServer(t, llmtest.WithHandler(func(_ int, r llmtest.Recorded) llmtest.Reply {
		if ids := fakemodel.PlannerIDs(fakemodel.Parse(r).Prompt()); len(ids) > 0 {
			return llmtest.OpenAI(llmtest.Completion{Content: fakemodel.Plan(ids, 900), PromptTokens: 900, CompletionTokens: 60})
		}
		if strings.Contains(string(r.Body), grading.JudgeSchemaName) {
			return llmtest.OpenAI(llmtest.Completion{
				Content:      `{"extracted_final_answer":"two moles","reasoning":"two is 2","correct":"yes"}`,
				PromptTokens: 300, CompletionTokens: 50,
			})
		}
		// The explanation echoes the prompt's length, so that a re-solve's
		// answer (its prompt has a banner) is not the baseline's, and its
		// judge call not the baseline's cached one.
		// The last problem is answered in the reference's words: matching
		// settles it, no judge is asked, and its judge's hold is released.
		prompt := fakemodel.Parse(r).Prompt()
		answer := "two moles"
		if strings.Contains(prompt, fmt.Sprintf("(variant %d)", judgedProblems-1)) {
			answer = "2 moles"
		}
		content := fmt.Sprintf("Explanation: read %d bytes; 2 H2 + O2 -> 2 H2O.\nAnswer: %s\nConfidence: 90%%", len(prompt), answer)
		return llmtest.OpenAI(llmtest.Completion{Content: content, PromptTokens: 200, CompletionTokens: 1000})
	}))
	var probs strings.Builder
	for i := range judgedProblems {
		line, _ := json.Marshal(map[string]any{
			"id": fmt.Sprintf("hle-%d", i), "dataset": "hle",
			"text":    fmt.Sprintf("How many moles of water form when 2 moles of hydrogen burn (variant %d)?", i),
			"grading": map[string]string{"kind": "exact", "answer": "2 moles", "answer_type": "exactMatch"},
		})
		probs.Write(append(line, '\n'))
	}
	s.write(t, "hle.jsonl", probs.String())
	s.write(t, "endpoints.json", fmt.Sprintf(`{
  "q": {"base_url": "%[1]s", "model": "solver-model", "mode": "standard", "max_attempts": 1, "timeout": "5s",
    "max_output_tokens": 1000, "api_key_env": "Q_KEY", "price": {"input_per_mtok": 0.01, "output_per_mtok": 1}},
  "j": {"base_url": "%[1]s", "model": "judge-model", "mode": "standard", "max_attempts": 1, "timeout": "5s",
    "max_output_tokens": 100, "api_key_env": "Q_KEY", "price": {"input_per_mtok": 1, "output_per_mtok": 1000}}}`, s.srv.URL()))
	s.setJudgedCap(t, capUSD)
	return s
}

// setJudgedCap writes the judged study's config with spend.cap_usd = c.
func (s *quoteStudy) setJudgedCap(t *testing.T, c float64) {
	t.Helper()
	s.write(t, "run.yaml", fmt.Sprintf(`name: judged
run_store: run.db
ground_truth_store: gt.db
problems: [hle.jsonl]
endpoints: endpoints.json
llm_cache: llm-cache.db
solvers: [{model: solver-model, mode: standard, endpoint: q}]
pool_size: 4
alphas: [0.5, 1]
strategies: [llm]
baseline: {concurrency: 1, judge_endpoint: j}
spend: {cap_usd: %v}
`, c))
}

// TestSpendCapCountsTheJudge: a grading judge's calls are reserved at
// their bound before each solve and billed under the judge's endpoint
// (SPEC §9). Under a cap that one solve and its judge fit but not two,
// the baseline stops before the second problem, on the judge's hold —
// without it, the solves alone (a thousandth of a judge's price) would
// all have gone out and the judges past the cap with them. Raised, the
// cap lets the baseline finish, every judge call billed once.
func TestSpendCapCountsTheJudge(t *testing.T) {
	s := judgedStudy(t, 0.12)
	step.Run(t, "the quote says how many judge calls may come", func(t *testing.T) {
		env, out, logs := testEnv(nil)
		if err := Run(context.Background(), []string{"quote", s.cfg}, env); err != nil {
			t.Fatalf("quote: %v\n%s", err, logs)
		}
		if want := fmt.Sprintf("judge calls (j) of Phase 0 are not quoted: at most %d", judgedProblems); !strings.Contains(out.String(), want) {
			t.Errorf("quote lacks %q:\n%s", want, out)
		}
	})
	step.Run(t, "the cap stops the baseline on a judge's hold", func(t *testing.T) {
		env, _, logs := testEnv(map[string]string{"Q_KEY": "k"})
		err := Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env)
		var capErr *orchestrator.SpendCapError
		if !errors.As(err, &capErr) || capErr.Endpoint != "j" || capErr.Phase != string(quote.Baseline) {
			t.Fatalf("baseline under the cap: %v (%+v), want the judge's hold refused\n%s", err, capErr, logs)
		}
		// One judged problem fits, and the one matching settles if it came
		// first (its judge's hold released, nearly nothing spent).
		n := groundTruthCount(t, filepath.Join(s.dir, "gt.db"))
		if n != 1 && n != 2 {
			t.Errorf("%d records stored, want 1, or 2 with the matched one", n)
		}
		checkJudgedSpend(t, s, int64(n), 1)
	})
	step.Run(t, "raised, the cap lets every problem and its judge through", func(t *testing.T) {
		s.setJudgedCap(t, 1)
		env, _, logs := testEnv(map[string]string{"Q_KEY": "k"})
		if err := Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env); err != nil {
			t.Fatalf("baseline: %v\n%s", err, logs)
		}
		checkJudgedSpend(t, s, judgedProblems, judgedProblems-1)
	})
	step.Run(t, "budget-aware re-solves bill their judge calls too", func(t *testing.T) {
		env, _, logs := testEnv(map[string]string{"Q_KEY": "k"})
		for _, cmd := range []string{"run", "budget-aware"} {
			if err := Run(context.Background(), []string{cmd, "--progress", "off", s.cfg}, env); err != nil {
				t.Fatalf("%s: %v\n%s", cmd, err, logs)
			}
		}
		calls := map[string]int64{}
		for _, r := range s.spendRows(t) {
			if r.Phase == string(quote.Resolve) {
				calls[r.Endpoint] = r.Calls
				want := map[string]float64{"q": judgedSolveDollars, "j": judgedJudgeDollars}[r.Endpoint]
				if !nearDollars(r.Dollars, float64(r.Calls)*want) {
					t.Errorf("re-solves on %s: %d calls billed $%v, want $%v each", r.Endpoint, r.Calls, r.Dollars, want)
				}
			}
		}
		// The α = 1 plan attempts all four problems: four re-solves, every
		// answer but the last judged.
		if calls["q"] != judgedProblems || calls["j"] != judgedProblems-1 {
			t.Errorf("re-solve calls billed %v, want %d on q and %d on j", calls, judgedProblems, judgedProblems-1)
		}
	})
}

// checkJudgedSpend checks that n solves and judged judge calls were
// billed in Phase 0, each at its usage, and nothing past the cap of the
// first step.
func checkJudgedSpend(t *testing.T, s *quoteStudy, n, judged int64) {
	t.Helper()
	rows := map[string]int64{}
	var dollars float64
	for _, r := range s.spendRows(t) {
		if r.Phase != string(quote.Baseline) {
			continue
		}
		rows[r.Endpoint] = r.Calls
		dollars += r.Dollars
		want := map[string]float64{"q": judgedSolveDollars, "j": judgedJudgeDollars}[r.Endpoint]
		if !nearDollars(r.Dollars, float64(r.Calls)*want) {
			t.Errorf("endpoint %s: %d calls billed $%v, want $%v each", r.Endpoint, r.Calls, r.Dollars, want)
		}
	}
	if rows["q"] != n || rows["j"] != judged {
		t.Errorf("calls billed %v, want %d solves (q) and %d judge calls (j)", rows, n, judged)
	}
	if judged == 1 && dollars > 0.12 {
		t.Errorf("spent $%v past the $0.12 cap", dollars)
	}
}
