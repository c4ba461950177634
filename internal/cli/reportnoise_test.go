package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
	"github.com/triage-eval/triage/internal/testkit/step"
)

// noisyModel plays two solvers and their planners. As a solver it answers
// the t-th solving call (in arrival order) right unless t is a multiple of
// 3, in 100 + 37·(t mod 7) tokens, so that repeated samples of a problem
// differ; problem "alpha-5" fails every call (never gradeable). As a
// planner it gives the first half of the pool 150 tokens, with a repeated
// step and a zero allocation the repair drops.
type noisyModel struct{ solves atomic.Int64 }

func (m *noisyModel) reply(_ int, r llmtest.Recorded) llmtest.Reply {
	q := fakemodel.Parse(r)
	if q.IsProbe() {
		return llmtest.OK("OK")
	}
	prompt := q.Prompt()
	if ids := fakemodel.PlannerIDs(prompt); len(ids) > 0 {
		plan := fakemodel.Plan(fakemodel.FirstHalf(ids), 150)
		extra := fmt.Sprintf(`, {"id": %q, "tokens": 90}, {"id": %q, "tokens": 0}]}`, ids[0], ids[len(ids)-1])
		return llmtest.OpenAI(llmtest.Completion{Content: strings.TrimSuffix(plan, "]}") + extra, PromptTokens: 900, CompletionTokens: 60})
	}
	if strings.Contains(prompt, "Compute alpha 5.") {
		return llmtest.ServerError()
	}
	t := m.solves.Add(1)
	answer := "42"
	if t%3 == 0 {
		answer = "41"
	}
	return llmtest.OpenAI(llmtest.Completion{Content: "Answer: " + answer, PromptTokens: 50, CompletionTokens: int(100 + 37*(t%7))})
}

// TestReportMeasurementNoise runs Phase 0 with baseline.samples 3, a grid
// with every kind of plan (llm, the Planner's references, the
// partial-information references, an injected pool) and reports it, given
// the config and given the run store alone: the report has the noise part,
// and every stored record is reproduced from the samples, pools and plans
// triage report reads (noise_unmatched 0 everywhere). With samples 1 the
// report has no noise files and no noise columns.
func TestReportMeasurementNoise(t *testing.T) {
	for _, samples := range []int{3, 1} {
		t.Run(fmt.Sprintf("samples %d", samples), func(t *testing.T) {
			testReportNoise(t, samples)
		})
	}
}

func testReportNoise(t *testing.T, samples int) {
	dir := t.TempDir()
	ctx := context.Background()
	env, _, logs := testEnv(nil)
	srv := llmtest.NewServer(t, llmtest.WithHandler((&noisyModel{}).reply))
	var probs strings.Builder
	for i := range 12 {
		value := ""
		if i%4 == 1 {
			value = `"value": 2, `
		}
		fmt.Fprintf(&probs, `{"id":"alpha-%d","dataset":"alpha",%s"text":"Compute alpha %d.","grading":{"kind":"math","answer":"42","integer":true}}`+"\n", i, value, i)
	}
	for i := range 8 {
		fmt.Fprintf(&probs, `{"id":"beta-%d","dataset":"beta","text":"Compute beta %d.","grading":{"kind":"math","answer":"42","integer":true}}`+"\n", i, i)
	}
	for i := range 6 {
		fmt.Fprintf(&probs, `{"id":"u-%d","dataset":"unsolvable","unsolvable":true,"text":"Compute u %d.","grading":{"kind":"math","answer":"42","integer":true}}`+"\n", i, i)
	}
	writeAt(t, filepath.Join(dir, "problems.jsonl"), probs.String())
	writeAt(t, filepath.Join(dir, "endpoints.json"), fakemodel.EndpointsFile(map[string]fakemodel.Endpoint{
		"q1": {BaseURL: srv.URL(), Model: "m1", Mode: "extended", MaxAttempts: 1, Timeout: "5s"},
		"q2": {BaseURL: srv.URL(), Model: "m2", Mode: "extended", MaxAttempts: 1, Timeout: "5s"},
	}))
	cfgPath := filepath.Join(dir, "run.yaml")
	writeAt(t, cfgPath, fmt.Sprintf(`run_store: run.db
ground_truth_store: gt.db
problems: [problems.jsonl]
endpoints: endpoints.json
llm_cache: llm-cache.db
solvers: [{model: m1, mode: extended, endpoint: q1}, {model: m2, mode: extended, endpoint: q2}]
pool_size: 4
alphas: [0.5, 1]
strategies: [llm, random, shortest_first, population, self_cost]
random: {seed: 7, samples: 300}
injection: [{base: alpha, source: unsolvable, ratios: [0.5]}]
baseline: {samples: %d, concurrency: 2}
`, samples))

	step.Run(t, "baseline", func(t *testing.T) {
		if err := Run(ctx, []string{"baseline", "--progress", "off", cfgPath}, env); err != nil {
			t.Fatalf("baseline: %v\n%s", err, logs)
		}
	})
	step.Run(t, "run", func(t *testing.T) {
		if err := Run(ctx, []string{"run", "--progress", "off", cfgPath}, env); err != nil {
			t.Fatalf("run: %v\n%s", err, logs)
		}
	})
	for _, arg := range []string{cfgPath, filepath.Join(dir, "run.db")} {
		t.Run("report of "+filepath.Base(arg), func(t *testing.T) {
			reportDir := filepath.Join(t.TempDir(), "report")
			repEnv, out, errOut := testEnv(nil)
			if err := Run(ctx, []string{"report", "--out", reportDir, arg}, repEnv); err != nil {
				t.Fatalf("report: %v\n%s", err, errOut)
			}
			if strings.Contains(errOut.String(), "measurement-noise") {
				t.Errorf("the report skipped the noise part:\n%s", errOut)
			}
			checkNoiseReport(t, reportDir, out.String(), samples)
		})
	}
	// A run store moved away from its config's folder cannot say where its
	// ground truth is: the report says to pass the config (whether or not
	// the samples would have been more than one: it cannot know) and has no
	// noise part.
	t.Run("report of a moved run store", func(t *testing.T) {
		moved := filepath.Join(t.TempDir(), "elsewhere.db")
		writeAt(t, moved, string(mustRead(t, filepath.Join(dir, "run.db"))))
		reportDir := filepath.Join(t.TempDir(), "report")
		repEnv, out, errOut := testEnv(nil)
		if err := Run(ctx, []string{"report", "--out", reportDir, moved}, repEnv); err != nil {
			t.Fatalf("report: %v\n%s", err, errOut)
		}
		var notes []string
		for _, l := range strings.Split(errOut.String(), "\n") {
			if strings.HasPrefix(l, "note:") || strings.HasPrefix(l, "warning:") {
				notes = append(notes, l)
			}
		}
		if len(notes) != 1 || !strings.Contains(notes[0], "pass the run's config") {
			t.Errorf("report of a moved run store: stderr %q, want one note saying to pass the config", errOut)
		}
		checkNoiseReport(t, reportDir, out.String(), 1)
	})
}

// checkNoiseReport checks a report directory and summary for the noise
// part: present, complete and matched with k = samples > 1, absent with 1.
func checkNoiseReport(t *testing.T, reportDir, summary string, samples int) {
	t.Helper()
	tables := string(mustRead(t, filepath.Join(reportDir, "tables.md")))
	cells := readCSV(t, filepath.Join(reportDir, "cells.csv"))
	col := func(name string) int { return slices.Index(cells[0], name) }
	if samples == 1 {
		for _, f := range []string{"noise.csv", "items_noise.csv"} {
			if _, err := os.Stat(filepath.Join(reportDir, f)); !os.IsNotExist(err) {
				t.Errorf("%s with one sample per item: %v", f, err)
			}
		}
		if col("eta_noise_lo") >= 0 || strings.Contains(tables, "Measurement noise") || strings.Contains(summary, "noise") {
			t.Errorf("a report with one sample per item has a noise part")
		}
		return
	}
	for _, f := range []string{"noise.csv", "items_noise.csv"} {
		if rows := readCSV(t, filepath.Join(reportDir, f)); len(rows) < 2 {
			t.Errorf("%s has %d rows, want a header and data", f, len(rows))
		}
	}
	if !strings.Contains(tables, "Measurement noise") || !strings.Contains(summary, "noise-aware") || !strings.Contains(summary, "noise.csv, items_noise.csv") {
		t.Errorf("the summary or tables.md lacks the noise part:\n%s", summary)
	}
	lo, hi, unmatched, eta := col("eta_noise_lo"), col("eta_noise_hi"), col("noise_unmatched"), col("eta")
	if lo < 0 || hi < 0 || unmatched < 0 || eta < 0 {
		t.Fatalf("cells.csv header %v lacks a noise column", cells[0])
	}
	intervals := 0
	for _, row := range cells[1:] {
		if row[unmatched] != "0" {
			t.Errorf("cells.csv row %v: noise_unmatched %s, want 0 (the loader does not reproduce the stored records)", row, row[unmatched])
		}
		if row[lo] == "" {
			continue
		}
		l, errLo := strconv.ParseFloat(row[lo], 64)
		h, errHi := strconv.ParseFloat(row[hi], 64)
		if errLo != nil || errHi != nil || l > h {
			t.Errorf("cells.csv row %v: noise interval [%q, %q]", row, row[lo], row[hi])
		}
		intervals++
	}
	if intervals == 0 {
		t.Errorf("no row of cells.csv has a noise-aware interval")
	}
	// cells.json also has the injection cells: every kind of plan and pool
	// is reproduced and gets its interval.
	var doc struct {
		Cells, Injection []struct {
			Strategy, Source string
			EtaNoiseCI       []float64 `json:"eta_noise_ci"`
			NoiseUnmatched   *int      `json:"noise_unmatched"`
		}
	}
	if err := json.Unmarshal(mustRead(t, filepath.Join(reportDir, "cells.json")), &doc); err != nil {
		t.Fatal(err)
	}
	withCI := map[string]bool{}
	for _, c := range append(doc.Cells, doc.Injection...) {
		if c.NoiseUnmatched == nil {
			t.Errorf("cells.json cell %s/%s has no noise_unmatched", c.Strategy, c.Source)
		} else if *c.NoiseUnmatched != 0 {
			t.Errorf("cells.json cell %s/%s: noise_unmatched %d, want 0", c.Strategy, c.Source, *c.NoiseUnmatched)
		}
		if len(c.EtaNoiseCI) == 2 {
			withCI[c.Strategy+"/"+c.Source] = true
		}
	}
	for _, want := range []string{"llm/", "random/", "shortest_first/", "population/", "self_cost/", "llm/unsolvable", "population/unsolvable"} {
		if !withCI[want] {
			t.Errorf("no cell of strategy/source %s has a noise-aware interval (have %v)", want, withCI)
		}
	}
}

// readCSV reads a whole CSV file.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}
