package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// harnessFixtures are the logs and problems of package harnesslog's tests.
const harnessFixtures = "../phase0/harnesslog/testdata/"

// TestImportGroundTruthStoresWithSource: logs import into the store in one
// import, every record naming its source, epoch 2 as repeated sample 2; a
// second import changes nothing; --out writes the same records as JSONL
// and touches no store.
func TestImportGroundTruthStoresWithSource(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "gt.db")
	args := []string{"import-ground-truth", "--problems", harnessFixtures + "problems.jsonl", "--dataset", "aime", "--mode", "extended", "--store", db, harnessFixtures + "inspect-aime.json"}
	out, err := runCLI(t, args...)
	if err != nil || !strings.Contains(out, "4 records imported (4 inserted, 0 updated, 0 unchanged)") {
		t.Fatalf("import: %q, %v", out, err)
	}
	if out, err = runCLI(t, args...); err != nil || !strings.Contains(out, "(0 inserted, 0 updated, 4 unchanged)") {
		t.Fatalf("re-import: %q, %v", out, err)
	}
	listed, err := runCLI(t, "ground-truth", "list", "--samples", "--store", db)
	if err != nil {
		t.Fatal(err)
	}
	costs := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(listed), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		epoch := 1
		if j, ok := r["sample"].(float64); ok {
			epoch = int(j)
		}
		if r["cost_rule"] != "harness_output" || r["source"] != harnessFixtures+"inspect-aime.json#id="+r["problem_id"].(string)+",epoch="+strconv.Itoa(epoch) {
			t.Errorf("listed %s; want rule harness_output and its source", line)
		}
		costs[r["problem_id"].(string)+"/"+strconv.Itoa(epoch)] = r["cost"].(float64)
	}
	if len(costs) != 4 || costs["2024-I-1/1"] != 2048 || costs["2024-I-2/1"] != 7953 || costs["2024-II-4/1"] != 512 || costs["2024-I-1/2"] != 1900 {
		t.Errorf("costs %v", costs)
	}
	file := filepath.Join(dir, "gt.jsonl")
	if _, err := runCLI(t, "import-ground-truth", "--problems", harnessFixtures+"problems.jsonl", "--dataset", "aime", "--mode", "extended", "--store", filepath.Join(dir, "other.db"), "--out", file, harnessFixtures+"inspect-aime.json"); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sorted := func(s string) []string { l := strings.Split(s, "\n"); slices.Sort(l); return l }
	if !slices.Equal(sorted(string(written)), sorted(listed)) {
		t.Errorf("--out wrote (in log order)\n%s\nthe store lists (in key order)\n%s", written, listed)
	}
	if _, err := os.Stat(filepath.Join(dir, "other.db")); !os.IsNotExist(err) {
		t.Errorf("--out created a store: %v", err)
	}
}

// TestImportGroundTruthRefusesAll: one refused sample stores nothing and
// writes nothing, and the error names the file, the sample and the field.
func TestImportGroundTruthRefusesAll(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(harnessFixtures + "inspect-aime.json")
	if err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	delete(log["samples"].([]any)[1].(map[string]any), "scores")
	bad, _ := json.Marshal(log)
	badPath := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(badPath, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "gt.db")
	out := filepath.Join(dir, "out.jsonl")
	for _, extra := range [][]string{{"--store", db}, {"--out", out}} {
		args := append([]string{"import-ground-truth", "--problems", harnessFixtures + "problems.jsonl", "--dataset", "aime", "--mode", "extended", harnessFixtures + "inspect-aime.json", badPath}, extra...)
		_, err := runCLI(t, args...)
		if err == nil || !strings.Contains(err.Error(), "nothing written") || !strings.Contains(err.Error(), badPath+": sample id=2024-I-2,epoch=1: scores: no score") {
			t.Fatalf("%v: err %v", extra, err)
		}
		// The good log's samples are the bad one's too: both refusals of
		// duplicates and of the score are listed.
		if !strings.Contains(err.Error(), `gives problem "2024-I-1"`) {
			t.Errorf("%v: err %v; want the duplicates listed too", extra, err)
		}
	}
	for _, p := range []string{db, out} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s exists after a refusal: %v", p, err)
		}
	}
}

// TestImportGroundTruthUsage: what the command cannot run without.
func TestImportGroundTruthUsage(t *testing.T) {
	p := harnessFixtures + "problems.jsonl"
	log := harnessFixtures + "inspect-aime.json"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--problems", p, "--mode", "standard"}, "needs at least one LOG"},
		{[]string{"--mode", "standard", log}, "--problems is required"},
		{[]string{"--problems", p, log}, `--mode must be "standard" or "extended"`},
		{[]string{"--problems", p, "--mode", "standard", "--from", "helm", log}, `--from must be "inspect" or "lm-eval"`},
		{[]string{"--problems", p, "--mode", "standard", "--match", "fuzzy", log}, `--match must be "id" or "text"`},
		{[]string{"--problems", p, "--mode", "standard", "--out", "x.jsonl", "--config", "c.yaml", log}, "--out writes a file and imports nothing"},
	}
	for _, tc := range tests {
		_, err := runCLI(t, append([]string{"import-ground-truth"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestImportGroundTruthLMEval: an lm-evaluation-harness samples file needs
// the model and the document's id field; --metric chooses y; --from forces
// the format whatever the name.
func TestImportGroundTruthLMEval(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(harnessFixtures + "samples_aime24_2026-03-04T05-06-07.123456.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(dir, "qwen-aime.log")
	if err := os.WriteFile(renamed, src, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "gt.jsonl")
	base := []string{"import-ground-truth", "--problems", harnessFixtures + "problems.jsonl", "--dataset", "aime", "--mode", "standard", "--out", file}
	if _, err := runCLI(t, append(base, "--model", "qwen3-32b", "--key", "doc.id", renamed)...); err == nil || !strings.Contains(err.Error(), "use --from inspect or --from lm-eval") {
		t.Fatalf("unknown extension: %v", err)
	}
	if _, err := runCLI(t, append(base, "--from", "lm-eval", "--key", "doc.id", renamed)...); err == nil || !strings.Contains(err.Error(), "give it with --model") {
		t.Fatalf("no model: %v", err)
	}
	if _, err := runCLI(t, append(base, "--from", "lm-eval", "--model", "qwen3-32b", "--key", "doc.id", "--metric", "acc", renamed)...); err == nil || !strings.Contains(err.Error(), `line=1,doc_id=0: metrics: no score "acc" (the sample has "exact_match")`) {
		t.Fatalf("unknown metric: %v", err)
	}
	if _, err := runCLI(t, append(base, "--from", "lm-eval", "--model", "qwen3-32b", "--key", "doc.id", "--metric", "exact_match", renamed)...); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(written)), "\n")
	if len(lines) != 3 || !strings.Contains(lines[2], `"problem_id":"2024-II-4","cost":704,"correct":true`) || !strings.Contains(lines[2], `"source":"`+renamed+`#line=3,doc_id=2"`) {
		t.Errorf("wrote:\n%s", written)
	}
}
