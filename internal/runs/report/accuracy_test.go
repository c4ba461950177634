package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestAccuracyPublicTestsOnly: the items graded on public tests alone are
// summed per (solver, dataset) and shown in the accuracy table (with a note
// saying what they are), the CSV and the JSON; a dataset without any shows
// nothing.
func TestAccuracyPublicTestsOnly(t *testing.T) {
	rep := Build(nil, []Accuracy{
		{Model: "m", Mode: "extended", Dataset: "lcb", Correct: 10, Gradeable: 12, PublicTestsOnly: 9},
		{Model: "m", Mode: "extended", Dataset: "lcb", Correct: 3, Gradeable: 4, PublicTestsOnly: 4},
		{Model: "m", Mode: "extended", Dataset: "aime", Correct: 5, Gradeable: 30},
	})
	tab := rep.AccuracyTable()
	if !slices.Equal(tab.Header, []string{"Model", "Mode", "aime", "lcb"}) || len(tab.Rows) != 1 {
		t.Fatalf("table %+v", tab)
	}
	if got := tab.Rows[0]; got[2] != "0.167 (n=30)" || got[3] != "0.812 (n=16) public-only 13" {
		t.Errorf("row %q", got)
	}
	if !slices.ContainsFunc(tab.Notes, func(n string) bool {
		return strings.Contains(n, `"public-only k"`) && strings.Contains(n, "--require-hidden-tests")
	}) {
		t.Errorf("no note explains public-only: %q", tab.Notes)
	}
	var buf bytes.Buffer
	if err := rep.AccuracyCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 3 || rows[0][8] != "public_tests_only" || rows[1][8] != "0" || rows[2][2] != "lcb" || rows[2][8] != "13" {
		t.Errorf("csv %q, %v", rows, err)
	}
	buf.Reset()
	if err := rep.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Accuracy []struct {
			Dataset         string `json:"dataset"`
			PublicTestsOnly *int   `json:"public_tests_only"`
		} `json:"accuracy"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil || len(out.Accuracy) != 2 || out.Accuracy[1].PublicTestsOnly == nil || *out.Accuracy[1].PublicTestsOnly != 13 {
		t.Errorf("json accuracy %+v, %v", out.Accuracy, err)
	}
	// Without public-only items there is neither a note nor a mark.
	plain := Build(nil, []Accuracy{{Model: "m", Mode: "extended", Dataset: "aime", Correct: 5, Gradeable: 30}}).AccuracyTable()
	if strings.Contains(strings.Join(plain.Notes, " "), "public-only") || strings.Contains(plain.Rows[0][2], "public-only") {
		t.Errorf("plain table %+v", plain)
	}
}
