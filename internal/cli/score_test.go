package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/testkit/golden"
)

// TestScoreGolden runs `triage score` on every testdata/score/*.json and
// compares what it prints with the .golden file beside it: the JSON result
// on success, the error (exit non-zero) otherwise. Inputs named err_* must
// fail.
func TestScoreGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "score", "*.json"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			env, out, _ := testEnv(nil)
			runErr := Run(context.Background(), []string{"score", in}, env)
			wantFail := strings.HasPrefix(name, "err_")
			if (runErr != nil) != wantFail {
				t.Fatalf("err = %v, want failure %v", runErr, wantFail)
			}
			got := []byte(out.String())
			if runErr != nil {
				got = []byte(runErr.Error() + "\n")
			}
			golden.File(t, strings.TrimSuffix(in, ".json")+".golden", got)
		})
	}
}

func TestScoreReadsStdin(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "score", "basic.json"))
	if err != nil {
		t.Fatal(err)
	}
	env, out, _ := testEnv(nil)
	env.Stdin = bytes.NewReader(data)
	if err := Run(context.Background(), []string{"score"}, env); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join("testdata", "score", "basic.golden"))
	if out.String() != string(want) {
		t.Error("stdin and file give different results")
	}
	env, _, _ = testEnv(nil)
	env.Stdin = strings.NewReader(`{"items":[{"id":"a","cost":5,"correct":true}],"budget":-1,"plan":[]}`)
	err = Run(context.Background(), []string{"score", "-"}, env)
	if err == nil || err.Error() != "-:1: budget: must be ≥ 0, got -1" {
		t.Errorf("stdin error = %v", err)
	}
}
