package demo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/testkit/golden"
)

func TestEmbeddedDataIsGenerated(t *testing.T) {
	want := generate()
	if golden.Update() {
		for name, b := range want {
			if err := os.WriteFile(filepath.Join("data", name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Skip("data/ rewritten; run again without -update")
	}
	var names []string
	err := fs.WalkDir(FS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		got, _ := fs.ReadFile(FS(), name)
		if w, ok := want[name]; !ok {
			t.Errorf("data/%s is not generated", name)
		} else if !bytes.Equal(got, w) {
			t.Errorf("data/%s differs from the generator's output; run with -update", name)
		}
	}
	if len(names) != len(want) {
		t.Errorf("data/ holds %v; the generator writes %d files", names, len(want))
	}
}

func TestAccessors(t *testing.T) {
	if !bytes.Equal(Problems(), generate()[ProblemsFile]) || !bytes.Equal(GroundTruth(), generate()[GroundTruthFile]) {
		t.Error("Problems or GroundTruth does not return the embedded file")
	}
	p := Problems()
	p[0] = 'X'
	if Problems()[0] == 'X' {
		t.Error("Problems returns shared memory")
	}
}

func TestProblems(t *testing.T) {
	ps, err := problems.Read(bytes.NewReader(Problems()), ProblemsFile)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	unsolvable := map[string]int{}
	for _, p := range ps {
		count[p.Dataset]++
		if p.Unsolvable {
			unsolvable[p.Dataset]++
		}
		if !strings.HasPrefix(p.Text, "[synthetic] ") || strings.Contains(p.Text, p.ID) {
			t.Errorf("%s: text does not say it is synthetic, or names its id: %q", p.ID, p.Text)
		}
		if p.Value != 1 {
			t.Errorf("%s: value %v, want 1", p.ID, p.Value)
		}
	}
	for _, ds := range Datasets() {
		if count[ds] != problemsPerDataset || unsolvable[ds] != unsolvablePerDataset {
			t.Errorf("%s: %d problems, %d unsolvable", ds, count[ds], unsolvable[ds])
		}
	}
	// Enough twins for every ratio of the default injection, whose pools of
	// 30 need 30 unsolvable items at r = 1.
	if count[InjectionSource] < 30 || unsolvable[InjectionSource] != count[InjectionSource] {
		t.Errorf("%s: %d problems, %d unsolvable; want at least 30, all unsolvable", InjectionSource, count[InjectionSource], unsolvable[InjectionSource])
	}
	if len(count) != len(Datasets())+1 {
		t.Errorf("datasets in file %v, want %v and %s", count, Datasets(), InjectionSource)
	}
}

// gtKeys are the keys of the ground-truth line format (gtLine in
// internal/cli); every synthetic line has all of them.
var gtKeys = []string{"model", "mode", "dataset", "problem_id", "cost", "correct", "gradeable",
	"finish_reason", "latency_ms", "response_sha256", "error", "measured_at", "lucky_guess"}

func TestGroundTruth(t *testing.T) {
	ps, _ := problems.Read(bytes.NewReader(Problems()), ProblemsFile)
	unsolvable := map[groundtruth.Key]bool{}
	seen := map[groundtruth.Key]int{}
	for _, p := range ps {
		for _, s := range Solvers() {
			k := groundtruth.Key{Solver: groundtruth.Solver(s), Dataset: p.Dataset, ProblemID: p.ID}
			seen[k], unsolvable[k] = 0, p.Unsolvable
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(GroundTruth()))
	sc.Buffer(nil, 1<<20)
	var ungradeable, correct, lines int
	for line := 1; sc.Scan(); line++ {
		lines++
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &keys); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		if got := slices.Sorted(maps.Keys(keys)); !slices.Equal(got, slices.Sorted(slices.Values(gtKeys))) {
			t.Fatalf("line %d: keys %v, want %v", line, got, gtKeys)
		}
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var l gtRecord
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		rec := groundtruth.Record{
			Key:  groundtruth.Key{Solver: groundtruth.Solver{Model: l.Model, Mode: l.Mode}, Dataset: l.Dataset, ProblemID: l.ProblemID},
			Cost: l.Cost, Correct: l.Correct, Gradeable: l.Gradeable, FinishReason: l.FinishReason,
			Latency:        time.Duration(l.LatencyMS * float64(time.Millisecond)),
			ResponseSHA256: l.ResponseSHA256, Error: l.Error, MeasuredAt: l.MeasuredAt, LuckyGuess: l.LuckyGuess,
			CostRule: costrule.Unknown, // what an absent cost_rule imports as
		}
		var v apperr.Violations
		groundtruth.ValidateRecord(&v, "", rec)
		if err := v.Err(); err != nil {
			t.Errorf("line %d: the store would reject it: %v", line, err)
		}
		n, ok := seen[rec.Key]
		if !ok {
			t.Errorf("line %d: %+v is not a (solver, problem) of the sample", line, rec.Key)
		}
		seen[rec.Key] = n + 1
		if unsolvable[rec.Key] && rec.Correct {
			t.Errorf("line %d: unsolvable problem marked correct", line)
		}
		if !rec.Gradeable {
			ungradeable++
			if rec.Error != "synthetic API timeout" || rec.Cost != 0 {
				t.Errorf("line %d: ungradeable record %+v", line, rec)
			}
		}
		if rec.Correct {
			correct++
		}
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%+v: %d records, want 1", k, n)
		}
	}
	if ungradeable == 0 || ungradeable > lines/20 {
		t.Errorf("%d of %d records ungradeable; want a few", ungradeable, lines)
	}
	t.Logf("%d records, %d correct, %d ungradeable", lines, correct, ungradeable)
}
