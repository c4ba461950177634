package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/runs/demo"
)

// writeDemoRun writes the demo's sample and a config whose stores live in
// folders that do not exist yet; it returns the config's path.
func writeDemoRun(t *testing.T) (dir, cfgPath string) {
	t.Helper()
	dir = t.TempDir()
	for name, data := range map[string][]byte{"problems.jsonl": demo.Problems(), "gt.jsonl": demo.GroundTruth()} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfgPath = filepath.Join(dir, "run.yaml")
	config := `run_store: runs/deep/main.db
ground_truth_store: stores/gt.db
problems: [problems.jsonl]
ground_truth: [gt.jsonl]
datasets: [synth-math]
solvers: [{model: synthetic-careful, mode: standard}, {model: synthetic-hasty, mode: standard}]
alphas: [0.5]
strategies: [random]
`
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, cfgPath
}

func TestOneGrammarForRuns(t *testing.T) {
	ctx := context.Background()
	dir, cfgPath := writeDemoRun(t)
	env, _, logs := testEnv(nil)
	// Missing folders for the stores are created.
	if err := Run(ctx, []string{"run", cfgPath, "--progress", "off"}, env); err != nil {
		t.Fatalf("run (flags after the config): %v\n%s", err, logs)
	}
	runStore := filepath.Join(dir, "runs", "deep", "main.db")
	if _, err := os.Stat(runStore); err != nil {
		t.Fatal(err)
	}
	// report takes the config or the run store, flags anywhere.
	for _, args := range [][]string{
		{"report", cfgPath, "--out", filepath.Join(dir, "r1")},
		{"report", "--out", filepath.Join(dir, "r2"), runStore},
	} {
		repEnv, out, errOut := testEnv(nil)
		if err := Run(ctx, args, repEnv); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut)
		}
		if !strings.Contains(out.String(), "| synthetic-careful | standard | random   |") {
			t.Errorf("%v: no summary row:\n%s", args, out)
		}
	}
	// The wrong kind of file is named for what it is.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", runStore}, "is a SQLite database (a run store or a ground-truth store), not a run config"},
		{[]string{"baseline", filepath.Join(dir, "gt.jsonl")}, "holds JSON (a problem, ground-truth or score file?), not a run config"},
		{[]string{"report", filepath.Join(dir, "problems.jsonl")}, "holds JSON"},
		{[]string{"report", filepath.Join(dir, "nope.yaml")}, "no such file (expected the run's config or its run store)"},
		{[]string{"budget-aware", filepath.Join(dir, "nope.yaml")}, "no such file (expected a run config"},
	} {
		e, _, _ := testEnv(nil)
		if err := Run(ctx, tc.args, e); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v; want it to say %q", tc.args, err, tc.want)
		}
	}
	// A config with a mistake is reported as one, without the hint for the
	// wrong kind of file; a YAML file that is no config gets the hint.
	bad := filepath.Join(dir, "bad.yaml")
	raw, _ := os.ReadFile(cfgPath)
	if err := os.WriteFile(bad, append(raw, "pool_size: -1\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	notConfig := filepath.Join(dir, "compose.yaml")
	if err := os.WriteFile(notConfig, []byte("services: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const hint = "(triage report expects the run's config or its run store)"
	e, _, _ := testEnv(nil)
	if err := Run(ctx, []string{"report", bad}, e); err == nil || !strings.Contains(err.Error(), "pool_size: must be ≥ 1, got -1") || strings.Contains(err.Error(), hint) {
		t.Errorf("report of a config with a mistake: %v; want the mistake, without %q", err, hint)
	}
	if err := Run(ctx, []string{"report", notConfig}, e); err == nil || !strings.Contains(err.Error(), hint) {
		t.Errorf("report of a YAML file that is no config: %v; want %q", err, hint)
	}

	// A config whose run was never run has no run store to report on.
	other := filepath.Join(dir, "other.yaml")
	if err := os.WriteFile(other, []byte(strings.Replace(string(raw), "runs/deep/main.db", "runs/other.db", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Run(ctx, []string{"report", other}, e); err == nil || !strings.Contains(err.Error(), "does not exist yet (triage run") {
		t.Errorf("report before the run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "runs", "other.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("report created the run store: %v", err)
	}
}

func TestGroundTruthListReadsTheConfigAndCreatesNothing(t *testing.T) {
	ctx := context.Background()
	dir, cfgPath := writeDemoRun(t)
	env, _, logs := testEnv(nil)
	if err := Run(ctx, []string{"ground-truth", "import", "--config", cfgPath, filepath.Join(dir, "gt.jsonl")}, env); err != nil {
		t.Fatalf("import: %v\n%s", err, logs)
	}
	listEnv, out, _ := testEnv(nil)
	if err := Run(ctx, []string{"ground-truth", "list", cfgPath, "--dataset", "synth-code"}, listEnv); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != 4*60 {
		t.Errorf("listed %d synth-code records from the config's store, want 240", n)
	}
	missing := filepath.Join(dir, "missing.db")
	e, _, _ := testEnv(nil)
	if err := Run(ctx, []string{"ground-truth", "list", "--store", missing}, e); err == nil || !strings.Contains(err.Error(), "no ground-truth store at") {
		t.Errorf("list of a missing store: %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("list created %s: %v", missing, err)
	}
	if err := Run(ctx, []string{"ground-truth"}, e); err == nil || strings.Contains(err.Error(), "usage: usage") || !strings.Contains(err.Error(), "import FILE | list") {
		t.Errorf("ground-truth without a subcommand: %v", err)
	}
}

// TestDemoPrintsASummary: the demo's terminal output stays short — its
// notes and one row per solver and headline strategy (4 × 3; the partial-
// information references have their own table in the files) —; the rest is
// in files.
func TestDemoPrintsASummary(t *testing.T) {
	dir := t.TempDir()
	env, out, logs := testEnv(nil)
	if err := Run(context.Background(), []string{"demo", "--progress", "off", "--out", dir}, env); err != nil {
		t.Fatalf("%v\n%s", err, logs)
	}
	lines := strings.Count(out.String(), "\n") + strings.Count(logs.String(), "\n")
	if lines > 45 {
		t.Errorf("the demo printed %d lines, want at most 45:\n%s%s", lines, logs, out)
	}
	for _, want := range []string{"SYNTHETIC", "| synthetic-careful | extended |", "D / W at r = 0.5", filepath.Join(dir, "report")} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	for _, name := range []string{"tables.md", "cells.csv", "pools.csv", "comparisons.csv", "injection.csv", "report.html",
		"figures/figures.md", "figures/efficiency_random_a0.5.svg", "figures/regret_random_a0.5.png",
		"figures/heatmap_accuracy.svg", "figures/heatmap_eta_u_random.png", "figures/injection_random_a0.5.svg"} {
		if _, err := os.Stat(filepath.Join(dir, "report", name)); err != nil {
			t.Error(err)
		}
	}
}
