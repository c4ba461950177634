package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// repoRoot is the repository root, seen from this package.
var repoRoot = filepath.Join("..", "..")

// markdownBlock returns the first fenced block of the given language in the
// section of a Markdown file that starts with heading (up to the next
// heading of the same or a higher level).
func markdownBlock(t *testing.T, file, heading, lang string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, file))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n"+heading+"\n")
	if start < 0 {
		t.Fatalf("%s has no section %q", file, heading)
	}
	section := text[start+1:]
	level := heading[:strings.Index(heading, " ")+1]
	for _, l := range []string{"\n# ", "\n## ", "\n### "} {
		if len(l)-1 > len(level) {
			break
		}
		if end := strings.Index(section[1:], l); end >= 0 {
			section = section[:end+1]
		}
	}
	open := "```" + lang + "\n"
	i := strings.Index(section, open)
	if i < 0 {
		t.Fatalf("section %q of %s has no ```%s block", heading, file, lang)
	}
	block := section[i+len(open):]
	return block[:strings.Index(block, "```")]
}

// commandLines are a shell block's commands: its lines that are neither
// empty nor comments.
func commandLines(block string) []string {
	var out []string
	for _, line := range strings.Split(block, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// ownModelDefaultAddr is where examples/own-model/endpoints.json expects
// the model: vLLM's default address.
const ownModelDefaultAddr = "http://127.0.0.1:8000/v1"

// aime2024Model plays a model on the committed AIME 2024 problems: as a
// solver it answers problem k (0-based, in file order) right unless k is a
// multiple of 3, in vLLM's shape, with 300 + 97·k output tokens; as a
// planner it gives every problem of the pool 500 tokens. It counts the
// solver calls per problem and the planner calls.
type aime2024Model struct {
	problems []struct{ Problem, Answer string }

	mu      sync.Mutex
	solves  map[int]int
	planned int
}

func (m *aime2024Model) reply(_ int, r llmtest.Recorded) llmtest.Reply {
	q := fakemodel.Parse(r)
	if len(q.Messages) == 0 {
		return llmtest.BadRequest("no messages")
	}
	prompt := q.Prompt()
	if ids := fakemodel.PlannerIDs(prompt); len(ids) > 0 {
		m.mu.Lock()
		m.planned++
		m.mu.Unlock()
		return llmtest.VLLM(llmtest.Completion{Reasoning: "cheap ones first", Content: fakemodel.Plan(ids, 500), PromptTokens: 3000, CompletionTokens: 400})
	}
	for k, p := range m.problems {
		if !strings.Contains(prompt, p.Problem[:40]) {
			continue
		}
		m.mu.Lock()
		m.solves[k]++
		m.mu.Unlock()
		answer := p.Answer
		if k%3 == 0 {
			answer += "1" // a wrong integer
		}
		return llmtest.VLLM(llmtest.Completion{Reasoning: "thinking…", Content: `The answer is $\boxed{` + answer + `}$.`, PromptTokens: 200, CompletionTokens: 300 + 97*k})
	}
	return llmtest.OK("ok") // anything else (a preflight probe, say) is answered and not counted
}

// TestReadmeOwnModel runs the README's "Evaluate your own model" commands
// as written, in a copy of the files they read (examples/own-model and the
// committed AIME 2024 file), with `triage` on PATH being this test binary
// and the endpoint's base_url pointed at the in-process model server (the
// only change: its port). Import, baseline, run and report must succeed,
// store the ground truth the model gave, plan every pool once per α, and
// write the report where the README says.
func TestReadmeOwnModel(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("bash runs the README's commands: %v", err)
	}
	block := markdownBlock(t, "README.md", "## Evaluate your own model", "sh")
	commands := commandLines(block)
	if len(commands) == 0 || len(commands) > 8 {
		t.Fatalf("the README's own-model block has %d commands, want 1 to 8:\n%s", len(commands), block)
	}

	dir := t.TempDir()
	model := &aime2024Model{solves: map[int]int{}}
	aime := filepath.Join("testdata", "benchmarks", "aime", "aime2024.jsonl")
	copyFile(t, filepath.Join(repoRoot, aime), filepath.Join(dir, aime))
	f, err := os.Open(filepath.Join(repoRoot, aime))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var p struct{ Problem, Answer string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil || len(p.Problem) < 40 {
			t.Fatalf("%s: %q: %v", aime, sc.Text(), err)
		}
		model.problems = append(model.problems, p)
	}
	f.Close()
	srv := llmtest.NewServer(t, llmtest.WithHandler(model.reply))

	example := filepath.Join("examples", "own-model")
	entries, err := os.ReadDir(filepath.Join(repoRoot, example))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		copyFile(t, filepath.Join(repoRoot, example, e.Name()), filepath.Join(dir, example, e.Name()))
	}
	endpoints := filepath.Join(dir, example, "endpoints.json")
	b, err := os.ReadFile(endpoints)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), ownModelDefaultAddr); n != 1 {
		t.Fatalf("examples/own-model/endpoints.json names %s %d times, want once (the README says so)", ownModelDefaultAddr, n)
	}
	writeAt(t, endpoints, strings.Replace(string(b), ownModelDefaultAddr, srv.URL(), 1))

	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(bin, "triage")); err != nil {
		t.Fatal(err)
	}

	// The bound only catches a hang: the commands take seconds.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", block)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TRIAGE_") && !strings.HasPrefix(kv, "PATH=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "TRIAGE_TEST_AS_MAIN=1", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's own-model commands failed: %v\n%s", err, out)
	}

	cfg, err := orchestrator.LoadConfig(filepath.Join(dir, "my-eval", "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// Each problem was solved once and stored; a third answered wrong.
	t.Run("ground truth", func(t *testing.T) {
		st, err := groundtruth.Open(context.Background(), cfg.Path(cfg.GroundTruthStore))
		if err != nil {
			t.Fatal(err)
		}
		page, err := st.List(context.Background(), groundtruth.ListQuery{PageSize: 100})
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		correct, gradeable := 0, 0
		for _, r := range page.Records {
			if r.Gradeable {
				gradeable++
			}
			if r.Correct {
				correct++
			}
		}
		if len(page.Records) != 30 || gradeable != 30 || correct != 20 {
			t.Errorf("ground truth: %d records, %d gradeable, %d correct; want 30, 30, 20\n%s", len(page.Records), gradeable, correct, out)
		}
	})
	t.Run("model calls", func(t *testing.T) {
		model.mu.Lock()
		for k := range model.problems {
			if model.solves[k] != 1 {
				t.Errorf("problem %d was solved %d times, want once", k, model.solves[k])
			}
		}
		// 30 problems in pools of 10, one prompt variant, four α.
		if want := 3 * len(cfg.Alphas); model.planned != want {
			t.Errorf("%d planner calls, want %d (3 pools × %d α)", model.planned, want, len(cfg.Alphas))
		}
		model.mu.Unlock()
	})
	// The report is where the README says, with the model's own row.
	t.Run("report", func(t *testing.T) {
		reportDir := cfg.Path(cfg.RunStore) + ".report"
		rel, err := filepath.Rel(dir, reportDir)
		if err != nil {
			t.Fatal(err)
		}
		if readme := string(mustRead(t, filepath.Join(repoRoot, "README.md"))); !strings.Contains(readme, filepath.ToSlash(rel)+"/") {
			t.Errorf("the README does not name the report folder %s/", filepath.ToSlash(rel))
		}
		for _, name := range []string{"report.html", "tables.md", "cells.csv", "pools.csv"} {
			if _, err := os.Stat(filepath.Join(reportDir, name)); err != nil {
				t.Errorf("report file: %v", err)
			}
		}
		if !strings.Contains(string(out), "qwen3-8b") || !strings.Contains(string(out), "| llm") {
			t.Errorf("the report's summary has no llm row for qwen3-8b:\n%s", out)
		}
	})
}

// TestReferenceConfigAgrees loads the run config and the endpoints file of
// docs/reference.md as written and checks that every endpoint the config
// names is defined, so that the two examples can be used together.
func TestReferenceConfigAgrees(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "run.yaml")
	writeAt(t, cfgPath, markdownBlock(t, filepath.Join("docs", "reference.md"), "## The run config", "yaml"))
	writeAt(t, filepath.Join(dir, "endpoints.json"), markdownBlock(t, filepath.Join("docs", "reference.md"), "## The endpoints file", "json"))
	cfg, err := orchestrator.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	eps, err := loadEndpoints(cfg.Path(cfg.Endpoints))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range cfg.Solvers {
		names = append(names, s.Endpoint)
	}
	if cfg.Baseline.JudgeEndpoint != "" {
		names = append(names, cfg.Baseline.JudgeEndpoint)
	}
	for _, n := range names {
		if _, ok := eps[n]; !ok {
			t.Errorf("the config names endpoint %q, which the endpoints file does not define", n)
		}
	}
	if !slices.ContainsFunc(cfg.Solvers, func(s orchestrator.Solver) bool { return s.Endpoint != "" }) {
		t.Error("the reference's config names no endpoint: the check above checked nothing")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	writeAt(t, to, string(mustRead(t, from)))
}

func writeAt(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
