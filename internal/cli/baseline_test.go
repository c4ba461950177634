package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
	"github.com/triage-eval/triage/internal/testkit/step"
)

// aimeModel plays a solver on imported AIME 2024 problems: it knows every
// answer, and answers problem k (1-based position in the file) as follows,
// in vLLM's shape with the thinking in message.reasoning.
//
//	k ≡ 0 mod 3   wrong final answer (answer+1), though its thinking
//	              boxes the right one: thinking is never graded
//	k = 10        output cut at the token limit (finish_reason "length")
//	k = 20        500 on every attempt: not gradeable
//	otherwise     right answer in \boxed{}
//
// Costs are 100·k tokens (reasoning included). Planner prompts get a plan
// giving every listed problem 50 tokens; budget-aware prompts are answered
// right, in 40 tokens for odd k and 80 for even k.
type aimeModel struct {
	answers map[string]string // problem text → answer
	order   map[string]int    // problem text → k
	mu      sync.Mutex
	solves  map[string]int // problem text → calls
}

var bannerRE = regexp.MustCompile(`strict output-token budget of (\d+) tokens`)

func (m *aimeModel) reply(_ int, r llmtest.Recorded) llmtest.Reply {
	q := fakemodel.Parse(r)
	if q.IsProbe() {
		return llmtest.OK("OK")
	}
	prompt := q.Prompt()
	if ids := fakemodel.PlannerIDs(prompt); len(ids) > 0 {
		return llmtest.OpenAI(llmtest.Completion{Content: fakemodel.Plan(ids, 50), PromptTokens: 900, CompletionTokens: 60})
	}
	for text, answer := range m.answers {
		if !strings.Contains(prompt, text) {
			continue
		}
		k := m.order[text]
		m.mu.Lock()
		m.solves[text]++
		m.mu.Unlock()
		if bannerRE.MatchString(prompt) {
			return llmtest.VLLM(llmtest.Completion{Content: `\boxed{` + answer + `}`, PromptTokens: 200, CompletionTokens: 40 + 40*(1-k%2)})
		}
		right, _ := strconv.Atoi(answer)
		c := llmtest.Completion{Reasoning: "so it is \\boxed{" + answer + "}", Content: "The answer is $\\boxed{" + answer + "}$.", PromptTokens: 200, CompletionTokens: 100 * k}
		switch {
		case k == 20:
			return llmtest.ServerError()
		case k == 10:
			return llmtest.Truncated(llmtest.VLLM, c)
		case k%3 == 0:
			c.Content = "The answer is $\\boxed{" + strconv.Itoa(right+1) + "}$."
		}
		return llmtest.VLLM(c)
	}
	return llmtest.BadRequest("unknown problem")
}

func TestBaselineThenRunThenBudgetAware(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	env, _, logs := testEnv(nil)
	problemsFile := filepath.Join(dir, "aime.jsonl")
	if err := Run(ctx, []string{"import", "aime", "--out", problemsFile, benchdata.Path(t, "aime/aime2024.jsonl")}, env); err != nil {
		t.Fatalf("import: %v\n%s", err, logs)
	}
	probs, err := problems.ReadFile(problemsFile)
	if err != nil || len(probs) != 30 {
		t.Fatalf("imported %d problems, %v", len(probs), err)
	}
	model := &aimeModel{answers: map[string]string{}, order: map[string]int{}, solves: map[string]int{}}
	for k, p := range probs {
		var g struct{ Answer string }
		_ = json.Unmarshal(p.Grading, &g)
		model.answers[p.Text], model.order[p.Text] = g.Answer, k+1
	}
	srv := llmtest.NewServer(t, llmtest.WithHandler(model.reply))
	write := func(t *testing.T, name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The endpoint q at url, with a temperature (0: the default).
	endpoints := func(url string, temperature float64) string {
		return fakemodel.EndpointsFile(map[string]fakemodel.Endpoint{
			"q": {BaseURL: url, Model: "qwen3-8b", Mode: "extended", Family: "qwen", MaxAttempts: 2, Timeout: "5s", Temperature: temperature},
		})
	}
	write(t, "endpoints.json", endpoints(srv.URL(), 0))
	write(t, "run.yaml", `name: phase0
run_store: run.db
ground_truth_store: gt.db
problems: [aime.jsonl]
endpoints: endpoints.json
llm_cache: llm-cache.db
solvers: [{model: qwen3-8b, mode: extended, endpoint: q}]
pool_size: 15
alphas: [0.5, 1]
strategies: [llm]
baseline: {concurrency: 3}
`)
	cfgPath := filepath.Join(dir, "run.yaml")

	// Phase 0.
	correct := 0
	step.Run(t, "baseline", func(t *testing.T) {
		if err := Run(ctx, []string{"baseline", "--progress", "off", "--log", filepath.Join(dir, "baseline.jsonl"), cfgPath}, env); err != nil {
			t.Fatalf("baseline: %v\n%s", err, logs)
		}
		st, err := groundtruth.Open(ctx, filepath.Join(dir, "gt.db"))
		if err != nil {
			t.Fatal(err)
		}
		recs := map[string]groundtruth.Record{}
		page, err := st.List(ctx, groundtruth.ListQuery{PageSize: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page.Records {
			recs[r.ProblemID] = r
		}
		st.Close()
		if len(recs) != 30 {
			t.Fatalf("stored %d records, want 30", len(recs))
		}
		for k, p := range probs {
			r, k := recs[p.ID], k+1
			switch k {
			case 20:
				if r.Gradeable || !strings.Contains(r.Error, "500") || r.CostRule != costrule.None {
					t.Errorf("problem 20: %+v, want not gradeable with the HTTP error, cost rule none", r)
				}
			case 10:
				if !r.Gradeable || r.Correct || r.FinishReason != "length" || r.Cost != 1000 {
					t.Errorf("problem 10 (truncated): %+v, want gradeable, incorrect, finish_reason length, cost 1000", r)
				}
			default:
				want := k%3 != 0
				if !r.Gradeable || r.Correct != want || r.Cost != int64(100*k) || r.CostRule != costrule.Completion || r.ResponseSHA256 == "" {
					t.Errorf("problem %d (%s): %+v, want correct=%v cost %d", k, p.ID, r, want, 100*k)
				}
				if want {
					correct++
				}
			}
		}
		if !strings.Contains(logs.String(), fmt.Sprintf("solved 30: %d correct, %d incorrect (1 cut at the token limit), 1 not gradeable (1 failed model calls)", correct, 29-correct)) {
			t.Errorf("summary line missing:\n%s", logs)
		}
		if !strings.Contains(logs.String(), `warning: 1 of 30 model calls of qwen3-8b/extended failed (1× endpoint "q": gave up after 2 attempts; last error: HTTP 500 Internal Server Error (server_error): The server had an error while processing your request.); the same command tries them again`) {
			t.Errorf("no warning about the failed call:\n%s", logs)
		}
		lines := readLines(t, filepath.Join(dir, "baseline.jsonl"))
		if all := strings.Join(lines, "\n"); len(lines) != 30 || !strings.Contains(all, `"outcome":"truncated"`) || !strings.Contains(all, `"prompt":"solver/math"`) ||
			strings.Count(all, `"cost_rule":"completion"`) != 29 || strings.Count(all, `"cost_rule":"none"`) != 1 {
			t.Errorf("baseline log: %d lines\n%s", len(lines), strings.Join(lines, "\n"))
		}
	})
	// Resuming checks the endpoint and tries only the problem that is not
	// gradeable (twice: it fails on both attempts). Its one call failed: the
	// command failed at its job.
	var failed *orchestrator.CallsFailedError
	step.Run(t, "resuming the baseline", func(t *testing.T) {
		before := srv.Count()
		if err := Run(ctx, []string{"baseline", "--progress", "off", cfgPath}, env); !errors.As(err, &failed) || failed.Calls != 1 {
			t.Fatalf("resumed baseline: %v, want every (one) model call failed", err)
		}
		if got := srv.Count() - before; got != 3 {
			t.Errorf("resumed baseline made %d calls, want 3 (the check, then one problem, two attempts)", got)
		}
		if !strings.Contains(logs.String(), "30 problems, 29 already stored; solved 1") {
			t.Errorf("resume summary missing:\n%s", logs)
		}
	})
	// Phase 1–2 on the ground truth Phase 0 produced.
	step.Run(t, "run", func(t *testing.T) {
		if err := Run(ctx, []string{"run", "--progress", "off", cfgPath}, env); err != nil {
			t.Fatalf("run: %v\n%s", err, logs)
		}
		rs, err := runstore.Open(ctx, filepath.Join(dir, "run.db"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := rs.Results(ctx)
		rs.Close()
		scores, accs := res.Records, res.Accuracy
		if err != nil || len(scores) == 0 {
			t.Fatalf("run stored %d scores, %v", len(scores), err)
		}
		if len(accs) != 1 || accs[0].Gradeable != 29 || accs[0].Correct != correct {
			t.Errorf("accuracy %+v, want %d/29", accs, correct)
		}
	})
	// The budget-aware re-solve: the α = 1 plans give every gradeable
	// problem 50 tokens.
	step.Run(t, "budget-aware and its report", func(t *testing.T) {
		baEnv, out, baLogs := testEnv(nil)
		if err := Run(ctx, []string{"budget-aware", "--progress", "off", cfgPath}, baEnv); err != nil {
			t.Fatalf("budget-aware: %v\n%s", err, baLogs)
		}
		// 29 re-solves, all right: kept = baseline correct, newly = the rest;
		// compliance counts outputs ≤ 50 tokens: the odd positions (40 tokens).
		odd := 0
		for k := 1; k <= 30; k++ {
			if k != 20 && k%2 == 1 {
				odd++
			}
		}
		// Every re-solve finished by itself (none cut at max_tokens), so both
		// compliance figures agree; no a_i reaches the endpoint's max_tokens.
		want := fmt.Sprintf("| qwen3-8b | extended | aime | 29 | %.3f | 1.000 | %.3f | %.3f | 29 | 0 | %d | 0 | %d | 0 | 0 | 0 |", float64(correct)/29, float64(odd)/29, float64(odd)/29, correct, 29-correct)
		if !strings.Contains(out.String(), want) {
			t.Errorf("budget-aware table lacks\n%s\ngot\n%s", want, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "run.db.report", "budget_aware.csv")); err != nil {
			t.Error(err)
		}
		// Every stored re-solve carries the build's stamp (SPEC §10).
		rs, err := runstore.Open(ctx, filepath.Join(dir, "run.db"))
		if err != nil {
			t.Fatal(err)
		}
		stored, err := rs.AllBudgetAware(ctx)
		rs.Close()
		if err != nil || len(stored) != 29 {
			t.Fatalf("stored re-solves: %d, %v", len(stored), err)
		}
		for _, r := range stored {
			if r.Version == nil || *r.Version != version.Current().Stamp() {
				t.Fatalf("a stored re-solve's version is %+v, want %+v", r.Version, version.Current().Stamp())
			}
		}
		// triage report (given the config) summarizes the re-solve too, and
		// writes its table.
		repEnv, repOut, _ := testEnv(nil)
		if err := Run(ctx, []string{"report", cfgPath}, repEnv); err != nil {
			t.Fatal(err)
		}
		wantSummary := fmt.Sprintf("%.3f → 1.000 (n=29)", float64(correct)/29)
		if !strings.Contains(repOut.String(), wantSummary) {
			t.Errorf("report summary lacks the budget-aware headline %q:\n%s", wantSummary, repOut)
		}
		if md, err := os.ReadFile(filepath.Join(dir, "run.db.report", "budget_aware.md")); err != nil || !strings.Contains(string(md), want) {
			t.Errorf("budget_aware.md lacks %s: %v", want, err)
		}
	})
	// Re-running it resumes: no new calls.
	step.Run(t, "budget-aware resumes", func(t *testing.T) {
		before := srv.Count()
		if err := Run(ctx, []string{"budget-aware", "--progress", "off", cfgPath}, env); err != nil {
			t.Fatal(err)
		}
		if srv.Count() != before {
			t.Errorf("resumed budget-aware made %d calls, want 0", srv.Count()-before)
		}
	})
	// Another sampling setting makes every re-solve stale (SPEC §5): all 29
	// are asked again (the response cache cannot answer a new temperature).
	step.Run(t, "another temperature re-solves everything", func(t *testing.T) {
		write(t, "endpoints.json", endpoints(srv.URL(), 0.5))
		before := srv.Count()
		if err := Run(ctx, []string{"budget-aware", "--progress", "off", cfgPath}, env); err != nil {
			t.Fatal(err)
		}
		if got := srv.Count() - before; got != 29 {
			t.Errorf("budget-aware after a temperature change made %d calls, want 29", got)
		}
	})
	// An endpoint that refuses every re-solve fails the command.
	t.Run("a refusing endpoint fails budget-aware", func(t *testing.T) {
		refusing := llmtest.NewServer(t, llmtest.WithAPIKey("the-right-key"))
		write(t, "endpoints.json", endpoints(refusing.URL(), 0.7))
		err := Run(ctx, []string{"budget-aware", "--progress", "off", cfgPath}, env)
		if !errors.As(err, &failed) || failed.Calls != 29 || !strings.Contains(err.Error(), `29× endpoint "q": HTTP 401 Unauthorized (invalid_api_key): Incorrect API key provided.`) {
			t.Errorf("budget-aware against a refusing endpoint: %v, want all 29 calls failed with the 401", err)
		}
	})
	// The first problem's reference answer is corrected: its stored ground
	// truth measured another problem. The run and the budget-aware
	// re-solve refuse it, the baseline solves it again, and the run goes on.
	step.Run(t, "an edited answer key", func(t *testing.T) {
		write(t, "endpoints.json", endpoints(srv.URL(), 0))
		edited := probs[0]
		edited.Grading = json.RawMessage(`{"kind":"math","answer":"999","integer":true}`)
		var file strings.Builder
		for _, p := range append([]problems.Problem{edited}, probs[1:]...) {
			line, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			file.Write(line)
			file.WriteByte('\n')
		}
		write(t, "aime.jsonl", file.String())
		before := srv.Count()
		var pre *orchestrator.PreflightError
		if err := Run(ctx, []string{"run", "--progress", "off", cfgPath}, env); !errors.As(err, &pre) ||
			!strings.Contains(err.Error(), "the ground truth of 1 problem of aime ("+edited.ID+") was measured on another text, grading or unsolvable mark") {
			t.Fatalf("run after the edit: %v, want a preflight error naming %s", err, edited.ID)
		}
		var stale *budgetaware.StaleGroundTruthError
		if err := Run(ctx, []string{"budget-aware", "--progress", "off", cfgPath}, env); !errors.As(err, &stale) || stale.Items[0] != "qwen3-8b/extended aime/"+edited.ID {
			t.Fatalf("budget-aware after the edit: %v, want the stale item named", err)
		}
		if srv.Count() != before {
			t.Errorf("%d model calls while refusing", srv.Count()-before)
		}
		if err := Run(ctx, []string{"baseline", "--progress", "off", cfgPath}, env); err != nil {
			t.Fatalf("baseline after the edit: %v\n%s", err, logs)
		}
		if !strings.Contains(logs.String(), "28 already stored, 1 stored stale (measured on another text, grading or unsolvable mark) and solved again; solved 2: 0 correct, 1 incorrect") {
			t.Errorf("baseline summary does not say it solved the stale problem again (now wrong; the call that failed before is tried again too):\n%s", logs)
		}
		if err := Run(ctx, []string{"run", "--progress", "off", cfgPath}, env); err != nil {
			t.Fatalf("run after the baseline: %v\n%s", err, logs)
		}
	})
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}
