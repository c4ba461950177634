package orchestrator_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/problems"
)

// TestPreflightRefusesStaleGroundTruth: ground truth that says it measured
// another version of its problem than the problem file holds now stops the
// run before any model call, naming the solver, the dataset and the
// problems; once the file holds the problems it measured, the run goes on.
// Records that do not say what they measured are used as they are.
func TestPreflightRefusesStaleGroundTruth(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	cfg := writeFixture(t, dir, srv.URL())
	old := map[string]string{"alpha-02": "", "alpha-04": "", "alpha-05": "", "alpha-07": ""}
	for id := range old {
		old[id] = "[synthetic] problem " + id + " as first written"
	}
	probsPath, gtPath := filepath.Join(dir, "problems.jsonl"), filepath.Join(dir, "gt.jsonl")
	probs, err := os.ReadFile(probsPath)
	if err != nil {
		t.Fatal(err)
	}
	// m/standard's records of alpha-00 and the four say what they measured:
	// alpha-00 as it is now, the four as first written.
	digests := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(probs)), "\n") {
		var p problems.Problem
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		if text, ok := old[p.ID]; ok {
			p.Text = text
		}
		digests[p.ID] = problems.Digest(p)
	}
	rewriteLines(t, gtPath, func(rec map[string]any) {
		if id := rec["problem_id"].(string); rec["mode"] == "standard" && (id == "alpha-00" || old[id] != "") {
			rec["problem_sha256"] = digests[id]
		}
	})

	_, _, err = runWith(t, cfg, orchestrator.Options{})
	var pe *orchestrator.PreflightError
	if !errors.As(err, &pe) || len(pe.Problems) != 1 ||
		!strings.Contains(pe.Problems[0], "solvers[0] (m/standard): the ground truth of 4 problems of alpha (alpha-02, alpha-04, alpha-05, …) was measured on another text, grading or unsolvable mark") ||
		!strings.Contains(pe.Problems[0], "triage baseline") {
		t.Fatalf("error %v; want one preflight problem naming m/standard's four stale problems of alpha", err)
	}
	if srv.Count() != 0 {
		t.Errorf("%d model calls before a failed preflight", srv.Count())
	}

	// The problem file holds the four as they were measured: the run goes on.
	rewriteLines(t, probsPath, func(p map[string]any) {
		if text, ok := old[p["id"].(string)]; ok {
			p["text"] = text
		}
	})
	if _, _, err := runWith(t, cfg, orchestrator.Options{}); err != nil {
		t.Fatalf("with the problems as measured: %v", err)
	}
}

// rewriteLines rewrites each JSON line of the file at path through edit.
func rewriteLines(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		enc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(enc)
		out.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
