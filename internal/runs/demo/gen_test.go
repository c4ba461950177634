package demo

import (
	"bytes"
	"encoding/json"
)

// readme is data/README.md, so that the files say what they are.
const readme = `# SYNTHETIC demo data — not real results

Everything in this directory is invented and was written by a seeded
generator (internal/runs/demo/gen_test.go):

- problems.jsonl: 120 invented problems (datasets synth-math and synth-code,
  60 each, 6 of each marked unsolvable), then synth-math-abstain: unsolvable
  twins of synth-math problems (the final question sentence kept, its givens
  removed), injected into synth-math pools by the demo's unsolvable-injection
  experiment. Every text starts "[synthetic]".
- ground_truth.jsonl: costs and correctness for four INVENTED solvers
  (synthetic-careful and synthetic-hasty, standard and extended mode).
  No model was run; these are not measurements of any real model.

Regenerate with: go test ./internal/runs/demo -run TestEmbeddedDataIsGenerated -update
`

// generate returns the contents of every file under data/.
func generate() map[string][]byte {
	ps := genProblems()
	var pb, gb bytes.Buffer
	enc := json.NewEncoder(&pb)
	enc.SetEscapeHTML(false)
	for _, p := range ps {
		if err := enc.Encode(p.Problem); err != nil {
			panic(err)
		}
	}
	enc = json.NewEncoder(&gb)
	enc.SetEscapeHTML(false)
	for _, rec := range genTruth(ps) {
		if err := enc.Encode(rec); err != nil {
			panic(err)
		}
	}
	return map[string][]byte{
		ProblemsFile:    pb.Bytes(),
		GroundTruthFile: gb.Bytes(),
		"README.md":     []byte(readme),
	}
}
