package demo

import (
	"embed"
	"io/fs"
)

//go:embed data/*
var data embed.FS

// File names inside FS.
const (
	ProblemsFile    = "problems.jsonl"
	GroundTruthFile = "ground_truth.jsonl"
)

// Solver is one invented solver of the sample: a model and a mode
// ("standard" or "extended").
type Solver struct {
	Model string `json:"model"`
	Mode  string `json:"mode"`
}

// FS returns the sample's files: ProblemsFile, GroundTruthFile and a
// README.md saying the data is synthetic.
func FS() fs.FS {
	sub, err := fs.Sub(data, "data")
	if err != nil {
		panic(err) // "data" is a valid, embedded directory
	}
	return sub
}

// Problems returns a copy of the synthetic problem file (canonical problem
// JSONL, see package problems).
func Problems() []byte { return mustRead(ProblemsFile) }

// GroundTruth returns a copy of the synthetic ground-truth file (the JSONL
// that "triage ground-truth import" reads).
func GroundTruth() []byte { return mustRead(GroundTruthFile) }

// Solvers returns the invented solvers of the ground truth, in file order.
func Solvers() []Solver {
	return []Solver{
		{Model: "synthetic-careful", Mode: "standard"},
		{Model: "synthetic-careful", Mode: "extended"},
		{Model: "synthetic-hasty", Mode: "standard"},
		{Model: "synthetic-hasty", Mode: "extended"},
	}
}

// Datasets returns the sample's datasets that form pools of their own, in
// file order.
func Datasets() []string { return []string{"synth-math", "synth-code"} }

// The unsolvable-injection experiment of the sample: InjectionSource holds
// unsolvable twins of InjectionBase problems, to be injected into its pools.
const (
	InjectionBase   = "synth-math"
	InjectionSource = "synth-math-abstain"
)

func mustRead(name string) []byte {
	b, err := data.ReadFile("data/" + name)
	if err != nil {
		panic(err) // embedded at build time; the test reads every file
	}
	return b
}
