package orchestrator_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/phase0/importers"
	"github.com/triage-eval/triage/internal/store/problems"
)

// importerFixtures is the folder of the importers' synthetic fixtures.
var importerFixtures = filepath.Join("..", "..", "phase0", "importers", "testdata")

// hleCategories are Humanity's Last Exam's categories, as its records spell
// them.
var hleCategories = []string{"Math", "Physics", "Computer Science/AI", "Humanities/Social Science",
	"Chemistry", "Engineering", "Biology/Medicine", "Other"}

// hleByCategory writes a synthetic HLE file (HLE itself is gated: invented
// records with its field names and its kind of ids, 24 hex digits) with two
// questions per category.
func hleByCategory(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, c := range hleCategories {
		for k := range 2 {
			sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%d", c, k)))
			rec, err := json.Marshal(map[string]any{
				"id": hex.EncodeToString(sum[:12]), "question": fmt.Sprintf("Synthetic question %d on %s: state the answer.", k+1, c),
				"image": "", "answer": "forty-two", "answer_type": "exactMatch", "category": c, "raw_subject": c,
			})
			if err != nil {
				t.Fatal(err)
			}
			b.Write(rec)
			b.WriteByte('\n')
		}
	}
	path := filepath.Join(t.TempDir(), "hle_categories.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// importEveryKind imports every kind of dataset through the real importers:
// AIME, MMLU and LiveCodeBench from the committed benchmark records, GPQA
// and HLE from the importers' synthetic fixtures, their -abstain variants,
// and HLE once per category (hle-<slug>). It returns the problems by
// dataset, in import order.
func importEveryKind(t *testing.T) map[string][]problems.Problem {
	t.Helper()
	open := func(path string) []importers.Input {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return []importers.Input{{Name: filepath.Base(path), R: f}}
	}
	type source struct {
		name string
		run  func() ([]problems.Problem, *importers.Report, error)
	}
	mmlu, gpqa := benchdata.Path(t, "mmlu/mmlu_math.jsonl"), filepath.Join(importerFixtures, "gpqa_synthetic.csv")
	sources := []source{
		{"AIME", func() ([]problems.Problem, *importers.Report, error) {
			return importers.AIME(open(benchdata.Path(t, "aime/aime2024.jsonl")), importers.AIMEOptions{})
		}},
		{"MMLU", func() ([]problems.Problem, *importers.Report, error) {
			return importers.MMLU(open(mmlu), importers.MMLUOptions{})
		}},
		{"MMLU-Abstain", func() ([]problems.Problem, *importers.Report, error) {
			return importers.MMLUAbstain(open(mmlu), importers.MMLUOptions{})
		}},
		{"LCB", func() ([]problems.Problem, *importers.Report, error) {
			return importers.LCB(open(benchdata.Path(t, "lcb/lcb_sample.jsonl")),
				importers.LCBOptions{Since: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)})
		}},
		{"GPQA", func() ([]problems.Problem, *importers.Report, error) {
			return importers.GPQA(open(gpqa), importers.GPQAOptions{Seed: 7})
		}},
		{"GPQA-Abstain", func() ([]problems.Problem, *importers.Report, error) {
			return importers.GPQAAbstain(open(gpqa), importers.GPQAOptions{Seed: 7})
		}},
		{"HLE", func() ([]problems.Problem, *importers.Report, error) {
			return importers.HLE(open(filepath.Join(importerFixtures, "hle_parquetjs.parquet")), importers.HLEOptions{})
		}},
	}
	categories := hleByCategory(t)
	for _, c := range hleCategories {
		sources = append(sources, source{"HLE " + c, func() ([]problems.Problem, *importers.Report, error) {
			return importers.HLE(open(categories), importers.HLEOptions{Categories: []string{c}})
		}})
	}
	out := map[string][]problems.Problem{}
	for _, s := range sources {
		ps, _, err := s.run()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if len(ps) == 0 {
			t.Fatalf("%s: no problems imported", s.name)
		}
		for _, p := range ps {
			out[p.Dataset] = append(out[p.Dataset], p)
		}
	}
	return out
}
