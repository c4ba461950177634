package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/demo"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// TestDemoWithAnLLM runs the demo with a model endpoint (the test server):
// every solver, standard and extended, gets its llm plans from an endpoint
// of its own mode, and a second run asks nothing again.
func TestDemoWithAnLLM(t *testing.T) {
	var mu sync.Mutex
	modes := map[string]int{}
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(_ int, r llmtest.Recorded) llmtest.Reply {
		thinking := fakemodel.Parse(r).Thinking()
		mu.Lock()
		defer mu.Unlock()
		if thinking {
			modes[llm.ModeExtended]++
		} else {
			modes[llm.ModeStandard]++
		}
		return llmtest.OpenAI(llmtest.Completion{Content: `{"plan": [{"id": "p1", "tokens": 500}]}`, CompletionTokens: 20})
	}))
	dir := t.TempDir()
	env, out, logs := testEnv(map[string]string{demoBaseURL: srv.URL(), demoModel: "Qwen/Qwen3-8B", demoFamily: "qwen"})
	if err := Run(context.Background(), []string{"demo", "--progress", "off", "--out", dir}, env); err != nil {
		t.Fatalf("demo: %v\n%s", err, logs)
	}
	calls := srv.Count()
	mu.Lock()
	std, ext := modes[llm.ModeStandard], modes[llm.ModeExtended]
	mu.Unlock()
	if calls == 0 || std == 0 || std != ext {
		t.Fatalf("%d model calls, %d standard and %d extended; want as many of each", calls, std, ext)
	}
	t.Run("the report", func(t *testing.T) {
		if !strings.Contains(out.String(), "| llm (default) |") {
			t.Errorf("the summary has no llm row:\n%s", out)
		}
		if _, err := os.Stat(filepath.Join(dir, "report", "cells.csv")); err != nil {
			t.Error(err)
		}
	})
	t.Run("a second demo asks the model nothing", func(t *testing.T) {
		if err := Run(context.Background(), []string{"demo", "--progress", "off", "--out", dir}, env); err != nil {
			t.Fatal(err)
		}
		if srv.Count() != calls {
			t.Errorf("the second demo run asked the model %d more times", srv.Count()-calls)
		}
	})
}

// TestDemoOutput runs the demo as `make demo` does (no LLM) and reads what
// a newcomer reads: no title names "variant -", the progress line has no
// "eta ?", the summary lists only files that were written (no
// budget_aware.csv), its notes explain the random strategy against the
// random reference and D = 0 for the reference strategies, and the
// partial-information references separate as the invented solvers are
// built for (internal/runs/demo, TestReferencesSeparate).
func TestDemoOutput(t *testing.T) {
	dir := t.TempDir()
	env, out, logs := testEnv(nil)
	if err := Run(context.Background(), []string{"demo", "--progress", "plain", "--out", dir}, env); err != nil {
		t.Fatalf("demo: %v\n%s", err, logs)
	}
	stdout := out.String()
	t.Run("progress", func(t *testing.T) {
		// Every solver, strategy (the six reference strategies) and α, on
		// the base pools (two per dataset of 60) and on the injected pools
		// (the two synth-math pools at five ratios).
		cells := len(demo.Solvers()) * 6 * 4 * (2*len(demo.Datasets()) + 2*5)
		if want := fmt.Sprintf("progress: cells %d/%d", cells, cells); strings.Contains(logs.String(), "eta ?") || !strings.Contains(logs.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, logs)
		}
	})
	t.Run("notes", func(t *testing.T) {
		for _, want := range []string{
			"The random strategy is not the random reference: it is one seeded random plan per pool",
			"over many seeded shuffles (1,000 by default)",
			"D = 0 for the reference strategies (random, shortest_first, all_in_order)",
			"the run's results come from 1 build(s) of triage", // one build ran every command
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("the summary lacks %q:\n%s", want, stdout)
			}
		}
	})
	reportDir := filepath.Join(dir, "report")
	t.Run("the references separate", func(t *testing.T) {
		eta := demoEtaU(t, filepath.Join(reportDir, "cells.json"), 0.5)
		for _, mode := range []string{"standard", "extended"} {
			careful, hasty := eta[[2]string{"synthetic-careful", mode}], eta[[2]string{"synthetic-hasty", mode}]
			cg := careful[vocab.SelfFeasibility] - careful[vocab.Population]
			hg := hasty[vocab.SelfFeasibility] - hasty[vocab.Population]
			if cg > 0.1 || hg < 0.15 {
				t.Errorf("%s: η_U of self_feasibility − population at α = 0.5 is %.3f for synthetic-careful, %.3f for synthetic-hasty; want at most 0.1 and at least 0.15", mode, cg, hg)
			}
		}
	})
	t.Run("listing names written files", func(t *testing.T) {
		_, listing, ok := strings.Cut(stdout, "Every table, figure and number is in "+reportDir+":\n")
		if !ok {
			t.Fatalf("no listing of the files:\n%s", stdout)
		}
		listed := 0
		for _, line := range strings.Split(strings.TrimSpace(listing), "\n") {
			name, _, _ := strings.Cut(strings.TrimSpace(line), "  ")
			for _, f := range strings.Split(name, ", ") {
				if strings.HasPrefix(f, "_") || strings.HasPrefix(f, ".") {
					continue // a shortened sibling name
				}
				if _, err := os.Stat(filepath.Join(reportDir, f)); err != nil {
					t.Errorf("listed %q was not written: %v", f, err)
				}
				listed++
			}
		}
		if listed < 8 || strings.Contains(listing, "budget_aware") || strings.Contains(listing, "sensitivity") {
			t.Errorf("listing (%d files):\n%s", listed, listing)
		}
	})
	t.Run("no title names variant -", func(t *testing.T) {
		for _, name := range []string{"tables.md", "tables.tex", "cells.md", "report.html", filepath.Join("figures", "figures.md")} {
			data, err := os.ReadFile(filepath.Join(reportDir, name))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), "variant -") {
				t.Errorf("%s names \"variant -\"", name)
			}
		}
		if strings.Contains(stdout, "variant -") {
			t.Errorf("the summary names \"variant -\"")
		}
	})
}

// demoEtaU reads cells.json and returns, per (model, mode) and strategy,
// η_U at alpha averaged over the pools of every dataset.
func demoEtaU(t *testing.T, path string, alpha float64) map[[2]string]map[vocab.Strategy]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []struct {
			Model, Mode, Regime string
			Strategy            vocab.Strategy
			Alpha               float64
			Eta                 *float64
			EtaN                int `json:"eta_n"`
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	type sum struct{ eta, n float64 }
	sums := map[[2]string]map[vocab.Strategy]*sum{}
	for _, c := range doc.Cells {
		if c.Alpha != alpha || c.Regime != "U" || c.Eta == nil {
			continue
		}
		k := [2]string{c.Model, c.Mode}
		if sums[k] == nil {
			sums[k] = map[vocab.Strategy]*sum{}
		}
		if sums[k][c.Strategy] == nil {
			sums[k][c.Strategy] = &sum{}
		}
		sums[k][c.Strategy].eta += *c.Eta * float64(c.EtaN)
		sums[k][c.Strategy].n += float64(c.EtaN)
	}
	out := map[[2]string]map[vocab.Strategy]float64{}
	for k, m := range sums {
		out[k] = map[vocab.Strategy]float64{}
		for st, s := range m {
			out[k][st] = s.eta / s.n
		}
	}
	return out
}
