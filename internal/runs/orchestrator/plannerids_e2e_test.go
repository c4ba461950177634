package orchestrator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/importers"
	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/protocol/budget"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// perDataset caps the problems kept per dataset (MMLU alone has 1,064), so
// the grid stays small: 2 pools of poolSize per dataset at most.
const (
	perDataset = 30
	poolSize   = 15
	alpha      = 0.5
)

// gramSize is the length, in characters, of the id fragments that must not
// reach a planner.
const gramSize = 4

// TestPlannerPromptsHideIDs runs a grid over every dataset kind the
// importers produce and checks every prompt the model received: no
// problem id, and no fragment of one, reaches a planner (SPEC §1).
//
// "Fragment" is made precise so that the check can neither miss a leak nor
// flag legitimate text. A gram is a run of gramSize characters, compared
// without case. A prompt leaks when it contains a problem id, or a gram of
// any problem id, that its legitimate content does not contain. The
// legitimate content of a prompt is (a) the texts of its pool's problems
// and (b) the same template rendered, with the dataset's domain label, the
// same budget and the same number of problems, for a synthetic pool whose
// problems are p1 … pn with empty texts. So "math" (the domain label), a
// pool's budget digits or a word of a problem's text may appear, while
// "bstain", "2024-I" or "1873" (which only ids hold) may not. Every gram of
// a correct prompt is in (a) or (b) — a gram that crosses from a text into
// the template holds a newline, which no id does — so the check passes
// exactly when nothing of an id is shown.
func TestPlannerPromptsHideIDs(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	byDataset := writeEveryKind(t, dir, srv.URL())
	cfg, err := orchestrator.LoadConfig(filepath.Join(dir, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rs := runOnce(t, cfg)
	ctx := context.Background()

	received := map[string]bool{}
	for _, r := range srv.Requests() {
		var body struct {
			Messages []llm.Message `json:"messages"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil || len(body.Messages) != 1 {
			t.Fatalf("request body %s: %v", r.Body, err)
		}
		received[body.Messages[0].Content] = true
	}
	var ids []string
	for _, ps := range byDataset {
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
	}
	idGrams := gramsOf(ids...)

	partitions, err := rs.Pools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	solver := orchestrator.Solver{Model: "m", Mode: "standard", Endpoint: "m-std"}
	checked := 0
	for dataset, pools := range partitions {
		texts := map[string]problems.Problem{}
		for _, p := range byDataset[dataset] {
			texts[p.ID] = p
		}
		for _, pool := range pools {
			// The random strategy's plan comes back in the pool's ids too.
			random := storedPlan(t, rs, orchestrator.CellKey(solver, dataset, pool.Index, alpha, vocab.Random, vocab.NoVariant))
			checkMapping(t, "random "+dataset, random, pool.ProblemIDs, nil)
			for _, variant := range cfg.Variants {
				key := orchestrator.CellKey(solver, dataset, pool.Index, alpha, vocab.LLM, variant)
				resp := storedPlan(t, rs, key)
				prompt := resp.GetPrompt()
				if !received[prompt] {
					t.Fatalf("%s: the stored prompt is not one the model received", key)
				}
				delete(received, prompt)
				checked++
				checkMapping(t, key, resp, pool.ProblemIDs, pool.ProblemIDs[:len(pool.ProblemIDs)/2])
				legit := legitimate(t, variant, dataset, pool.ProblemIDs, texts)
				if leaks := leaked(prompt, legit, ids, idGrams); len(leaks) > 0 {
					t.Errorf("%s: the prompt shows parts of problem ids: %s", key, strings.Join(leaks, ", "))
				}
			}
		}
	}
	t.Logf("checked %d prompts over %d datasets for %d ids", checked, len(byDataset), len(ids))
	if len(received) != 0 || checked < 2*len(byDataset) {
		t.Errorf("checked %d prompts for %d datasets; %d prompts the model received belong to no cell", checked, len(byDataset), len(received))
	}
}

// writeEveryKind imports every dataset kind, keeps perDataset problems of
// each (spread over the dataset), and writes them with synthetic ground
// truth for one solver, whose endpoint is the llmtest server, and the run
// config. It returns the kept problems by dataset.
func writeEveryKind(t *testing.T, dir, llmURL string) map[string][]problems.Problem {
	t.Helper()
	kept := map[string][]problems.Problem{}
	var all []problems.Problem
	var gt bytes.Buffer
	for dataset, ps := range importEveryKind(t) {
		step := max(1, len(ps)/perDataset)
		for i := 0; i < len(ps) && len(kept[dataset]) < perDataset; i += step {
			p := ps[i]
			kept[dataset] = append(kept[dataset], p)
			all = append(all, p)
			fmt.Fprintf(&gt, `{"model":"m","mode":"standard","dataset":%q,"problem_id":%q,"cost":%d,"correct":%v,"gradeable":true,"measured_at":"2026-01-01T00:00:00Z"}`+"\n",
				dataset, p.ID, cost(p.ID), !p.Unsolvable && cost(p.ID)%3 != 0)
		}
	}
	var probs bytes.Buffer
	if err := importers.WriteJSONL(&probs, all); err != nil {
		t.Fatal(err)
	}
	write := func(name string, content []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("problems.jsonl", probs.Bytes())
	write("gt.jsonl", gt.Bytes())
	write("endpoints.json", fmt.Appendf(nil, `{"m-std": {"base_url": %q, "model": "m-std", "mode": "standard"}}`, llmURL))
	write("run.yaml", fmt.Appendf(nil, `name: opaque-ids
run_store: run.db
ground_truth_store: gt.db
problems: [problems.jsonl]
ground_truth: [gt.jsonl]
solvers:
  - {model: m, mode: standard, endpoint: m-std}
pool_size: %d
partition_seed: 11
alphas: [%g]
variants: [default, A, B, C]
strategies: [llm, random]
random: {samples: 50, seed: 3}
concurrency: 2
endpoints: endpoints.json
llm_cache: llm-cache.db
`, poolSize, alpha))
	return kept
}

// cost is the synthetic cost of a problem: 250 to 1,220 tokens.
func cost(id string) int64 {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int64(250 + 97*(h.Sum32()%11))
}

// storedPlan reads the planner response the run stored for a cell.
func storedPlan(t *testing.T, rs runstore.Store, key string) *triagev1.CreatePlanResponse {
	t.Helper()
	stored, found, err := rs.Plan(context.Background(), key)
	if err != nil || !found || len(stored.Plan) == 0 {
		t.Fatalf("%s: no stored plan (found %v, err %v)", key, found, err)
	}
	var resp triagev1.CreatePlanResponse
	if err := protojson.Unmarshal(stored.Plan, &resp); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return &resp
}

// checkMapping checks the stored table of a cell and that its plan came
// back in the pool's ids: want, when not nil (planningModel plans the first
// half of the prompt's problems), else any of the pool's ids.
func checkMapping(t *testing.T, key string, resp *triagev1.CreatePlanResponse, pool, want []string) {
	t.Helper()
	var table, plan []string
	for i, row := range resp.GetPlannerIds() {
		if row.GetPlannerId() != fmt.Sprintf("p%d", i+1) {
			t.Errorf("%s: planner id %d is %q", key, i, row.GetPlannerId())
		}
		table = append(table, row.GetProblemId())
	}
	for _, st := range resp.GetParsed().GetPlan() {
		plan = append(plan, st.GetId())
		if want == nil && !slices.Contains(pool, st.GetId()) {
			t.Errorf("%s: plan step %q is not a pool id", key, st.GetId())
		}
	}
	if !slices.Equal(table, pool) || want != nil && !slices.Equal(plan, want) || want == nil && len(plan) == 0 {
		t.Errorf("%s: planner ids %v, plan %v; pool %v", key, table, plan, pool)
	}
}

// legitimate returns what a prompt for this cell may show: its problems'
// texts, and the template rendered for a synthetic pool p1 … pn with empty
// texts, the dataset's domain label and the cell's budget.
func legitimate(t *testing.T, variant vocab.Variant, dataset string, pool []string, texts map[string]problems.Problem) string {
	t.Helper()
	tmpl, err := prompts.Planner(variant)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, id := range pool {
		total += cost(id)
	}
	b, err := budget.FromAlpha(alpha, total)
	if err != nil {
		t.Fatal(err)
	}
	synthetic := make([]prompts.Problem, len(pool))
	var parts []string
	for i, id := range pool {
		synthetic[i] = prompts.Problem{ID: fmt.Sprintf("p%d", i+1), Value: 1}
		parts = append(parts, texts[id].Text)
	}
	parts = append(parts, tmpl.Render(prompts.PlannerInput{Problems: synthetic, Budget: b, Domain: prompts.DomainLabel(dataset)}))
	return strings.Join(parts, "\n")
}

// gramsOf returns the runs of gramSize characters of the strings, lower-cased.
func gramsOf(ss ...string) map[string]bool {
	out := map[string]bool{}
	for _, s := range ss {
		r := []rune(strings.ToLower(s))
		for i := 0; i+gramSize <= len(r); i++ {
			out[string(r[i:i+gramSize])] = true
		}
	}
	return out
}

// leaked returns what a prompt shows of the ids that its legitimate content
// does not hold: whole ids (any length), and grams of ids. Case is ignored.
func leaked(prompt, legit string, ids []string, idGrams map[string]bool) []string {
	lowPrompt, lowLegit := strings.ToLower(prompt), strings.ToLower(legit)
	var whole, grams []string
	for _, id := range ids {
		if low := strings.ToLower(id); strings.Contains(lowPrompt, low) && !strings.Contains(lowLegit, low) {
			whole = append(whole, fmt.Sprintf("id %q", id))
		}
	}
	legitGrams := gramsOf(legit)
	for g := range gramsOf(prompt) {
		if idGrams[g] && !legitGrams[g] {
			grams = append(grams, fmt.Sprintf("%q", g))
		}
	}
	slices.Sort(whole)
	slices.Sort(grams)
	out := append(whole, grams...)
	if len(out) > 12 {
		out = append(out[:12], fmt.Sprintf("… %d more", len(out)-12))
	}
	return out
}
