package yamlloc

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestLine(t *testing.T) {
	ix := Build([]byte("name: x\nsolvers:\n  - model: m\n    mode: fast\n  - {model: n}\nalphas: [0.5,\n  2]\nbaseline:\n  batch: true\n"))
	for path, want := range map[string]int{
		"name": 1, "solvers": 2, "solvers[0]": 3, "solvers[0].mode": 4, "solvers[1].model": 5,
		"alphas[0]": 6, "alphas[1]": 7, "baseline.batch": 9,
		"baseline.samples": 8, // not written: its parent's line
		"nothing":          0,
	} {
		if got := ix.Line(path); got != want {
			t.Errorf("Line(%q) = %d, want %d", path, got, want)
		}
	}
	if got := ix.At(9, "batch"); got != "baseline.batch" {
		t.Errorf("At(9, batch) = %q", got)
	}
	if len(Build([]byte("a: [1")).Index) != 0 {
		t.Error("a document that does not parse was indexed")
	}
}

func TestDecodeError(t *testing.T) {
	type inner struct {
		Batch       bool `yaml:"batch"`
		Concurrency int  `yaml:"concurrency"`
	}
	type cfg struct {
		Name     string `yaml:"name"`
		Size     int    `yaml:"size"`
		Seed     uint64 `yaml:"seed"`
		Baseline inner  `yaml:"baseline"`
	}
	tests := []struct{ doc, want string }{
		{"name: x\ncolour: red\n", "run.yaml:2: colour: unknown key"},
		{"baseline:\n  batc: true\n", "run.yaml:2: baseline.batc: unknown key"},
		{"seed: -5\n", "run.yaml:1: seed: must be an integer ≥ 0, got !!int `-5`"},
		{"size: lots\n", "run.yaml:1: size: must be an integer, got !!str `lots`"},
		{"name: x\nbaseline: fast\n", "run.yaml:2: baseline: must be a mapping, got !!str `fast`"},
		{"name: [x]\n", "run.yaml:1: name: must be a string, got !!seq"},
		{"name: x\nsize: [1\n", "run.yaml:1: did not find expected"},
		// A flow mapping puts several keys on one line: the message names
		// the key whose value is of the wrong kind, not the longest one.
		{"baseline: {batch: 7, concurrency: 3}\n", "run.yaml:1: baseline.batch: must be true or false, got !!int `7`"},
		{"baseline: {concurrency: many, batch: true}\n", "run.yaml:1: baseline.concurrency: must be an integer, got !!str `many`"},
		{"baseline: {batch: averyverylongword, concurrency: 3}\n", "run.yaml:1: baseline.batch: must be true or false"},
	}
	for _, tt := range tests {
		dec := yaml.NewDecoder(bytes.NewReader([]byte(tt.doc)))
		dec.KnownFields(true)
		var c cfg
		err := dec.Decode(&c)
		if err == nil {
			t.Fatalf("%q decoded", tt.doc)
		}
		got := Build([]byte(tt.doc)).DecodeError("run.yaml", err).Error()
		if !strings.HasPrefix(got, tt.want) || strings.Contains(got, "yamlloc.") {
			t.Errorf("%q: %q, want it to start %q and name no Go type", tt.doc, got, tt.want)
		}
	}
}

// TestFractionsInIntegers: a number with a fraction given to an integer
// setting is reported by path and line (the decoder would cut 1.9 to 1);
// integers, floats for float settings and strings are not.
func TestFractionsInIntegers(t *testing.T) {
	type solver struct {
		Model string `yaml:"model"`
	}
	type cfg struct {
		Size    int       `yaml:"size"`
		Seed    *uint64   `yaml:"seed"`
		Alphas  []float64 `yaml:"alphas"`
		Counts  []int32   `yaml:"counts"`
		Solvers []solver  `yaml:"solvers"`
		Random  struct {
			Samples int32 `yaml:"samples"`
		} `yaml:"random"`
	}
	doc := "size: 1.9\nseed: 0.5\nalphas: [0.5, 1]\ncounts: [1, 2.0]\nsolvers: [{model: 1.5}]\nrandom: {samples: 1e3}\n"
	var c cfg
	if err := yaml.Unmarshal([]byte(doc), &c); err != nil || c.Size != 1 {
		t.Fatalf("the decoder no longer cuts fractions (%v, size %d): this check may be redundant", err, c.Size)
	}
	err := FractionsInIntegers("run.yaml", []byte(doc), reflect.TypeOf(c))
	want := "run.yaml:1: size: must be an integer, got !!float `1.9`\n" +
		"run.yaml:2: seed: must be an integer, got !!float `0.5`\n" +
		"run.yaml:4: counts[1]: must be an integer, got !!float `2.0`\n" +
		"run.yaml:6: random.samples: must be an integer, got !!float `1e3`"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if err := FractionsInIntegers("run.yaml", []byte("size: 3\nalphas: [0.25]\n"), reflect.TypeOf(c)); err != nil {
		t.Errorf("integers: %v", err)
	}
}
