package orchestrator

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/store/problems"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfigDefaults(t *testing.T) {
	cfg, err := LoadConfig(writeConfig(t, `run_store: r.db
ground_truth_store: gt.db
problems: [p.jsonl]
solvers: [{model: m, mode: standard}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.PoolSize != 30 || !slices.Equal(cfg.Alphas, []float64{0.25, 0.5, 0.75, 1}) || !slices.Equal(cfg.Regimes, []vocab.Regime{vocab.Advisory, vocab.Enforced}) ||
		!slices.Equal(cfg.Strategies, []vocab.Strategy{vocab.Random, vocab.ShortestFirst, vocab.AllInOrder, vocab.Population, vocab.SelfFeasibility, vocab.SelfCost}) || cfg.Random.Samples != 1000 ||
		cfg.Baseline.Concurrency != 4 || cfg.Baseline.CodeConcurrency != 2 || cfg.Baseline.BudgetAwareVariant != "default" || cfg.Baseline.Samples != 1 {
		t.Errorf("defaults = %+v", cfg)
	}
	cfg, err = LoadConfig(writeConfig(t, `run_store: r.db
ground_truth_store: gt.db
problems: [p.jsonl]
solvers: [{model: m, mode: standard}]
partition_seed: 9
injection: [{base: gpqa, source: gpqa-abstain}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if in := cfg.Injection[0]; !slices.Equal(in.Ratios, []float64{0, 0.25, 0.5, 0.75, 1}) || *in.Seed != 9 || in.TwinSuffix != "-abstain" {
		t.Errorf("injection defaults = %+v", in)
	}
	if got := cfg.Path("p.jsonl"); got != filepath.Join(filepath.Dir(cfg.Path("x")), "p.jsonl") || cfg.Path("postgres://h/db") != "postgres://h/db" {
		t.Errorf("Path = %q", got)
	}
}

// TestConfigErrorsInFileOrder: every problem is reported, top to bottom,
// whichever check found it.
func TestConfigErrorsInFileOrder(t *testing.T) {
	_, err := LoadConfig(writeConfig(t, "ground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: fast}]\nrandom: {samples: 0}\nalphas: [2]\npool_size: -3\nconcurrency: 0\n"))
	if err == nil {
		t.Fatal("accepted")
	}
	var lines []int
	for _, msg := range strings.Split(err.Error(), "\n") {
		_, rest, ok := strings.Cut(msg, "run.yaml:")
		if !ok {
			lines = append(lines, 0) // run_store: required, which no line has
			continue
		}
		n, _ := strconv.Atoi(rest[:strings.IndexByte(rest, ':')])
		lines = append(lines, n)
	}
	if !slices.Equal(lines, []int{0, 3, 4, 5, 6, 7}) {
		t.Errorf("lines %v, want [0 3 4 5 6 7]:\n%v", lines, err)
	}
}

// TestConfigPartialBlocks: a block that gives some of its keys leaves the
// others to their defaults; only a key given as 0, null or [] is refused.
func TestConfigPartialBlocks(t *testing.T) {
	const head = "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: standard}]\n"
	for _, body := range []string{
		"random: {seed: 7}\n",
		"random:\n  method: exact\n",
		"baseline: {concurrency: 3}\n",
		"baseline: {batch: true}\n",
		"baseline: ~\n",
		"baseline:\n",
		"injection: [{base: gpqa, source: x}]\n",
	} {
		cfg, err := LoadConfig(writeConfig(t, head+body))
		if err != nil {
			t.Errorf("%q: %v", body, err)
			continue
		}
		if cfg.Random.Samples != 1000 || cfg.Baseline.Samples != 1 || cfg.Baseline.CodeConcurrency != 2 {
			t.Errorf("%q: defaults not applied: %+v", body, cfg)
		}
	}
}

// TestLoadProblemsEmpty: problem files that hold no problem at all are
// named, with the setting that lists them.
func TestLoadProblemsEmpty(t *testing.T) {
	path := writeConfig(t, "run_store: r.db\nground_truth_store: gt.db\nproblems: [a.jsonl, b.jsonl]\nsolvers: [{model: m, mode: standard}]\n")
	for _, f := range []string{"a.jsonl", "b.jsonl"} {
		if err := os.WriteFile(filepath.Join(filepath.Dir(path), f), []byte("\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.LoadProblems(); err == nil || !strings.HasSuffix(err.Error(), "run.yaml:3: problems: no problems in a.jsonl, b.jsonl") {
		t.Errorf("empty problem files: %v", err)
	}
}

// TestLoadProblemsAcrossFiles: a problem given again in a later file is
// read once when it is the same (its grading's spacing aside), and is an
// error naming both files when it differs in anything: which one the run
// should measure is not known (a later file used to replace it silently).
func TestLoadProblemsAcrossFiles(t *testing.T) {
	first := `{"id": "p1", "dataset": "aime", "text": "Find x.", "grading": {"answer": "204"}}` + "\n" + `{"id": "p2", "dataset": "aime", "text": "Find y."}` + "\n"
	for _, tc := range []struct {
		name, second, wantErr string
	}{
		{"the same problem", `{"id":"p1","dataset":"aime","text":"Find x.","grading":{ "answer" : "204" }}` + "\n", ""},
		{"another dataset's id", `{"id": "p1", "dataset": "math", "text": "Other."}` + "\n", ""},
		{"another answer", `{"id": "p1", "dataset": "aime", "text": "Find x.", "grading": {"answer": "999"}}` + "\n",
			`run.yaml:3: problems[1] (b.jsonl): id "p1" of dataset "aime" is also in problems[0] (a.jsonl), with another text, value, grading or unsolvable mark: give each problem once`},
		{"another text", `{"id": "p2", "dataset": "aime", "text": "Find z."}` + "\n", `id "p2" of dataset "aime" is also in problems[0] (a.jsonl)`},
		{"another value", `{"id": "p2", "dataset": "aime", "text": "Find y.", "value": 2}` + "\n", `id "p2" of dataset "aime" is also in problems[0] (a.jsonl)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, "run_store: r.db\nground_truth_store: gt.db\nproblems: [a.jsonl, b.jsonl]\nsolvers: [{model: m, mode: standard}]\n")
			for f, body := range map[string]string{"a.jsonl": first, "b.jsonl": tc.second} {
				if err := os.WriteFile(filepath.Join(filepath.Dir(path), f), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := LoadConfig(path)
			if err != nil {
				t.Fatal(err)
			}
			probs, err := cfg.LoadProblems()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("LoadProblems: %v", err)
			case tc.wantErr == "":
				if got := probs["aime"]["p1"].Text; got != "Find x." || len(probs["aime"]) != 2 {
					t.Errorf("aime holds %d problems, p1 %q; want 2, p1 as given", len(probs["aime"]), got)
				}
			case err == nil || !strings.Contains(err.Error(), tc.wantErr):
				t.Errorf("LoadProblems: %v, want …%s", err, tc.wantErr)
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"unknown key", "run_store: r.db\ncolour: red\n", []string{"run.yaml:2: colour: unknown key"}},
		{"unknown nested key", "run_store: r.db\nbaseline:\n  concurrency: 2\n  batc: true\n", []string{"run.yaml:4: baseline.batc: unknown key"}},
		{"unknown keys and bad values", "run_store: r.db\ncolour: red\nshape: round\npool_size: -3\n",
			[]string{"run.yaml:2: colour: unknown key", "run.yaml:3: shape: unknown key", "run.yaml:4: pool_size: must be ≥ 1, got -3"}},
		{"wrong type", "pool_size: lots\n", []string{"run.yaml:1: pool_size: must be an integer, got !!str `lots`"}},
		{"wrong kind", "run_store: r.db\nsolvers: fast\n", []string{"run.yaml:2: solvers: must be a list, got !!str `fast`"}},
		{"syntax", "run_store: r.db\nalphas: [0.5\n", []string{"run.yaml:1: did not find expected"}},
		{"empty", "", []string{"run.yaml: empty document"}},
		{"two documents", "run_store: r.db\n---\nrun_store: s.db\n", []string{"run.yaml: a second YAML document"}},
		{"repeated", "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: standard}]\nalphas: [0.5, 1, 0.5]\nvariants: [A, A]\nstrategies: [llm, random, llm]\n",
			[]string{"run.yaml:5: alphas[2]: repeats 0.5", "run.yaml:6: variants[1]: repeats \"A\"", "run.yaml:7: strategies[2]: repeats \"llm\""}},
		{"a path with a verb", "pool_size: -1\n", []string{"run.yaml:1: pool_size: must be ≥ 1, got -1"}},
		{"everything wrong", `problems: []
solvers: [{model: "", mode: fast}]
alphas: [0, 1.5]
variants: [D]
regimes: [U, U, X]
strategies: [llm, guess]
random: {method: magic}
concurrency: -1
pool_size: -3
baseline: {concurrency: 1000, code_concurrency: -2, budget_aware_variant: Z, samples: 21}
`, []string{"run.yaml:3: alphas[0]", "run.yaml:3: alphas[1]", "run.yaml:2: solvers[0].mode", "run.yaml:9: pool_size", "run.yaml:10: baseline.samples",
			"baseline.concurrency", "baseline.code_concurrency", "baseline.samples", "baseline.budget_aware_variant", "run_store: required", "ground_truth_store: required", "problems: at least one", "solvers[0].model: required",
			"solvers[0].mode", "solvers[0].endpoint", "alphas[0]", "alphas[1]", "variants[0]", "regimes[1]", "regimes[2]",
			"strategies[1]", "random.method", "concurrency", "pool_size"}},
		{"injection", `run_store: r.db
ground_truth_store: gt.db
problems: [p.jsonl]
solvers: [{model: m, mode: standard}]
injection:
  - {base: gpqa}
  - {source: x}
  - {base: gpqa, source: gpqa, ratios: [0.5, 1.5, 0.5, -1]}
  - {base: mmlu-math, source: mmlu-math-abstain}
  - {base: mmlu-math, source: mmlu-math-abstain}
`, []string{"injection[0].source: required", "injection[1].base: required", "injection[2].source: must differ",
			"injection[2].ratios[1]", "injection[2].ratios[2]", "injection[2].ratios[3]", "injection[4]: repeats injection[3]"}},
		{"negative samples", "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: standard}]\nbaseline: {samples: -1}\n",
			[]string{"baseline.samples: must be in [1, 20]", "got -1"}},
		{"fractions in integers", "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: standard}]\npool_size: 1.9\npartition_seed: 0.5\nrandom: {samples: 999.5}\n",
			[]string{"run.yaml:5: pool_size: must be an integer, got !!float `1.9`", "run.yaml:6: partition_seed: must be an integer, got !!float `0.5`", "run.yaml:7: random.samples: must be an integer"}},
		{"repeated solver", "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers:\n  - {model: m, mode: standard}\n  - {model: m, mode: extended}\n  - {model: m, mode: standard}\n",
			[]string{"run.yaml:7: solvers[2]: repeats solvers[0] (m/standard)"}},
		{"random samples out of range", "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: standard}]\nrandom: {samples: 2000000}\n",
			[]string{"run.yaml:5: random.samples: must be in [1, 1000000]", "got 2000000"}},
		{"negative random samples", "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: standard}]\nrandom: {method: exact, samples: -1}\n",
			[]string{"run.yaml:5: random.samples: must be in [1, 1000000]", "got -1"}},
		{"huge samples", "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: standard}]\nbaseline: {samples: 1000000000000}\n",
			[]string{"baseline.samples: must be in [1, 20]"}},
		// 0 or [] given in the file is refused, not read as the default:
		// "pool_size: 0" cannot mean a pool of 30.
		{"zeros and empty lists given", "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: standard}]\npool_size: 0\nconcurrency:\nrandom: {samples: 0}\nbaseline:\n  concurrency: 0\n  code_concurrency: 0\n  samples: 0\nalphas: []\nvariants: []\nregimes: []\nstrategies: []\n",
			[]string{"run.yaml:5: pool_size: must be ≥ 1, got 0 (leave the key out for the default)", "run.yaml:6: concurrency: must be ≥ 1, got null", "run.yaml:7: random.samples: must be ≥ 1, got 0",
				"run.yaml:9: baseline.concurrency: must be ≥ 1", "run.yaml:10: baseline.code_concurrency: must be ≥ 1", "run.yaml:11: baseline.samples: must be ≥ 1",
				"run.yaml:12: alphas: must list at least one α, got []", "run.yaml:13: variants: must list", "run.yaml:14: regimes: must list", "run.yaml:15: strategies: must list"}},
		{"empty injection ratios", "run_store: r.db\nground_truth_store: gt.db\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: standard}]\ninjection: [{base: gpqa, source: x, ratios: []}]\n",
			[]string{"run.yaml:5: injection[0].ratios: must list at least one ratio, got []"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadConfig(writeConfig(t, tt.body))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// TestDatasetSelectionWithInjection: an injection source forms no pools of
// its own unless named, but Phase 0 solves it (and the base) either way.
func TestDatasetSelectionWithInjection(t *testing.T) {
	probs := map[string]map[string]problems.Problem{"aime": nil, "gpqa": nil, "gpqa-abstain": nil, "lcb": nil}
	cfg := Config{Injection: []Injection{{Base: "gpqa", Source: "gpqa-abstain"}}}
	if got := cfg.SelectedDatasets(probs); !slices.Equal(got, []string{"aime", "gpqa", "lcb"}) {
		t.Errorf("selected %v", got)
	}
	cfg.Datasets = []string{"aime"}
	if got := cfg.SelectedDatasets(probs); !slices.Equal(got, []string{"aime"}) {
		t.Errorf("selected with datasets: %v", got)
	}
	if got := cfg.BaselineDatasets(probs); !slices.Equal(got, []string{"aime", "gpqa", "gpqa-abstain"}) {
		t.Errorf("baseline datasets %v", got)
	}
}
