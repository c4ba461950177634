package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gtLines(n int, bad map[int]string) string {
	var b strings.Builder
	for i := range n {
		if line, ok := bad[i]; ok {
			b.WriteString(line + "\n")
			continue
		}
		fmt.Fprintf(&b, `{"model":"m1","mode":"standard","dataset":"aime","problem_id":"p%04d","cost":%d,"correct":%v,"measured_at":"2026-01-02T03:04:05Z"}`+"\n", i, 100+i, i%2 == 0)
		if i == 10 {
			b.WriteString("\n") // blank lines are skipped but still counted
		}
	}
	return b.String()
}

func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	env, out, _ := testEnv(nil)
	err := Run(context.Background(), args, env)
	return out.String(), err
}

func TestGroundTruthImportAndList(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "gt.db")
	file := writeFile(t, "gt.jsonl", gtLines(2500, nil))
	out, err := runCLI(t, "ground-truth", "import", "--store", db, file)
	if err != nil || !strings.Contains(out, "2500 records imported (2500 inserted, 0 updated, 0 unchanged)") {
		t.Fatalf("import: %q, %v", out, err)
	}
	out, err = runCLI(t, "ground-truth", "import", "--store", db, file)
	if err != nil || !strings.Contains(out, "(0 inserted, 0 updated, 2500 unchanged)") {
		t.Fatalf("re-import: %q, %v", out, err)
	}
	listed, err := runCLI(t, "ground-truth", "list", "--store", db, "--dataset", "aime")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(listed), "\n")
	if len(lines) != 2500 || !strings.Contains(lines[0], `"problem_id":"p0000"`) {
		t.Fatalf("list gave %d lines, first %q", len(lines), lines[0])
	}
	// What list prints imports back unchanged.
	again := writeFile(t, "again.jsonl", listed)
	out, err = runCLI(t, "ground-truth", "import", "--store", db, again)
	if err != nil || !strings.Contains(out, "2500 unchanged") {
		t.Fatalf("list output does not re-import unchanged: %q, %v", out, err)
	}
	none, err := runCLI(t, "ground-truth", "list", "--store", db, "--model", "m2", "--mode", "standard")
	if err != nil || none != "" {
		t.Errorf("other model: %q, %v", none, err)
	}
}

// TestGroundTruthImportMakesTheStoreFolder: an import into a store whose
// folder does not exist yet makes it, as run and baseline do (it failed
// "unable to open database file (14)").
func TestGroundTruthImportMakesTheStoreFolder(t *testing.T) {
	db := filepath.Join(t.TempDir(), "new", "folder", "gt.db")
	out, err := runCLI(t, "ground-truth", "import", "--store", db, writeFile(t, "gt.jsonl", gtLines(3, nil)))
	if err != nil || !strings.Contains(out, "3 records imported") {
		t.Fatalf("import into a new folder: %q, %v", out, err)
	}
	if _, err := os.Stat(db); err != nil {
		t.Errorf("the store: %v", err)
	}
}

func TestGroundTruthImportErrors(t *testing.T) {
	tests := []struct {
		name string
		bad  map[int]string
		want string // expected error text
	}{
		{"invalid JSON", map[int]string{1500: `{"model": "m1",`}, ":1502: invalid JSON"},
		{"unknown key", map[int]string{7: `{"model":"m1","colour":"red"}`}, ":8: colour: unknown key"},
		{"wrong type", map[int]string{3: `{"model":"m1","cost":"lots"}`}, ":4: cost: must be an integer"},
		{"bad mode", map[int]string{20: `{"model":"m1","mode":"fast"}`}, `:22: mode: must be "standard" or "extended"`},
		{"rejected by the executor", map[int]string{1800: `{"model":"m1","mode":"standard","dataset":"aime","problem_id":"x","cost":0,"correct":true}`}, ":1802: cost: a gradeable record needs a cost"},
		{"missing model", map[int]string{2: `{"mode":"extended","dataset":"aime","problem_id":"x","cost":5}`}, ":3: model: must not be empty"},
		{"unknown cost rule", map[int]string{40: `{"model":"m1","mode":"standard","dataset":"aime","problem_id":"x","cost":5,"cost_rule":"max"}`}, `:42: cost_rule: must be one of completion, total_minus_prompt, completion_plus_reasoning, none, unknown, harness_output, got "max"`},
		{"cost rule rejected by the executor", map[int]string{1900: `{"model":"m1","mode":"standard","dataset":"aime","problem_id":"x","cost":5,"cost_rule":"none"}`}, ":1902: cost_rule: \"none\" says no cost was counted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := "sqlite:" + filepath.Join(t.TempDir(), "gt.db")
			file := writeFile(t, "gt.jsonl", gtLines(2000, tt.bad))
			_, err := runCLI(t, "ground-truth", "import", "--store", db, file)
			if err == nil || !strings.Contains(err.Error(), file+tt.want) || !strings.Contains(err.Error(), "nothing was imported") {
				t.Fatalf("err = %v, want it to contain %q", err, file+tt.want)
			}
			listed, err := runCLI(t, "ground-truth", "list", "--store", db)
			if err != nil || listed != "" {
				t.Errorf("after a failed import the store holds %d bytes of records (%v)", len(listed), err)
			}
		})
	}
}

// TestGroundTruthImportOfNothingFails: a file with no record (empty, or
// blank lines) is an import that kept nothing, exit 1, not "0 records
// imported" with exit 0.
func TestGroundTruthImportOfNothingFails(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "gt.db")
	for _, body := range []string{"", "\n\n  \n"} {
		file := writeFile(t, "empty.jsonl", body)
		_, err := runCLI(t, "ground-truth", "import", "--store", db, file)
		if err == nil || !strings.Contains(err.Error(), "no record in it") {
			t.Errorf("import of %q: %v, want an error saying the file has no record", body, err)
		}
	}
}

// TestGroundTruthListDuringImport: a read-only `ground-truth list` answers
// while another process's import holds the SQLite write lock (it failed
// with "database is locked" when opening the store took that lock).
func TestGroundTruthListDuringImport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gt.db")
	if _, err := runCLI(t, "ground-truth", "import", "--store", path, writeFile(t, "gt.jsonl", gtLines(500, nil))); err != nil {
		t.Fatal(err)
	}
	importer, err := groundtruth.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer importer.Close()
	holding, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := importer.Import(context.Background(), func(yield func(groundtruth.Record, error) bool) {
			rec := groundtruth.Record{Key: groundtruth.Key{Solver: groundtruth.Solver{Model: "m9", Mode: groundtruth.ModeStandard}, Dataset: "aime", ProblemID: "late"},
				Cost: 5, CostRule: costrule.Completion, Gradeable: true, MeasuredAt: time.Now()}
			if !yield(rec, nil) {
				return
			}
			close(holding) // the first batch is not written yet; the transaction is open
			<-release
		})
		done <- err
	}()
	<-holding
	defer func() { close(release); <-done }()
	// The importer holds its transaction until release: a list that waited
	// for it would fail with "database is locked", never answer.
	listed, err := runCLI(t, "ground-truth", "list", "--store", path)
	if err != nil {
		t.Fatalf("list during an import: %v", err)
	}
	if n := strings.Count(listed, "\n"); n != 500 {
		t.Errorf("listed %d records, want 500", n)
	}
}

// TestGroundTruthSamples: repeated Phase 0 samples import from a file,
// list only with --samples (after each ground truth, in order), and what
// list prints imports back unchanged; a sample out of range is refused by
// line and key.
func TestGroundTruthSamples(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "gt.db")
	line := func(id string, sample, cost int) string {
		s := ""
		if sample != 0 {
			s = fmt.Sprintf(`,"sample":%d`, sample)
		}
		return fmt.Sprintf(`{"model":"m1","mode":"standard","dataset":"aime","problem_id":"%s","cost":%d,"correct":true,"measured_at":"2026-01-02T03:04:05Z"%s}`, id, cost, s) + "\n"
	}
	for _, bad := range []int{-1, groundtruth.MaxSample + 1} {
		file := writeFile(t, "bad.jsonl", line("p1", 0, 10)+line("p1", bad, 11))
		_, err := runCLI(t, "ground-truth", "import", "--store", db, file)
		if err == nil || !strings.Contains(err.Error(), ":2: sample: must be in [0, 1000]") {
			t.Errorf("sample %d: %v; want an error naming line 2 and key sample", bad, err)
		}
	}
	file := writeFile(t, "gt.jsonl", line("p2", 3, 23)+line("p1", 0, 10)+line("p1", 2, 12)+line("p2", 1, 20)+line("p2", 2, 22))
	out, err := runCLI(t, "ground-truth", "import", "--store", db, file)
	if err != nil || !strings.Contains(out, "5 records imported (5 inserted, 0 updated, 0 unchanged)") {
		t.Fatalf("import: %q, %v", out, err)
	}
	costs := func(listed string) string {
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(listed), "\n") {
			var sample, cost string
			for _, f := range strings.Split(strings.Trim(l, "{}"), ",") {
				if k, v, _ := strings.Cut(f, ":"); k == `"sample"` {
					sample = v
				} else if k == `"cost"` {
					cost = v
				}
			}
			got = append(got, cost+"/"+sample)
		}
		return strings.Join(got, " ")
	}
	truth, err := runCLI(t, "ground-truth", "list", "--store", db)
	if err != nil || costs(truth) != "10/ 20/" {
		t.Fatalf("list: %q, %v; want the two ground truths without a sample key", truth, err)
	}
	all, err := runCLI(t, "ground-truth", "list", "--store", db, "--samples")
	if err != nil || costs(all) != "10/ 12/2 20/ 22/2 23/3" {
		t.Fatalf("list --samples: %q (%s), %v", all, costs(all), err)
	}
	out, err = runCLI(t, "ground-truth", "import", "--store", db, writeFile(t, "again.jsonl", all))
	if err != nil || !strings.Contains(out, "5 records imported (0 inserted, 0 updated, 5 unchanged)") {
		t.Fatalf("re-import of list --samples: %q, %v", out, err)
	}
}
