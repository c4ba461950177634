package harnesslog

import (
	"bytes"
	"os"
	"testing"
)

// FuzzReadEval: any bytes read as a .eval archive give samples or an
// error with a message, within the limits, never a panic.
func FuzzReadEval(f *testing.F) {
	fixture, err := os.ReadFile(mmluEval)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(fixture)
	f.Add(zipOf(f, member{name: "header.json", data: evalHeaderJSON}, member{name: "samples/2024-I-1_epoch_1.json", data: evalSampleJSON, method: zipZstd}))
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		samples, err := ReadEval("f.eval", bytes.NewReader(data), int64(len(data)), small())
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if len(samples) > small().MaxSamples {
			t.Fatalf("%d samples past the limit", len(samples))
		}
	})
}

// FuzzParse: any bytes read as an inspect_ai .json log or an
// lm-evaluation-harness samples file give samples or an error with a
// message, never a panic; binary never panics on a score value.
func FuzzParse(f *testing.F) {
	for _, path := range []string{aimeJSON, aimeLMEval} {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"eval":{"model":"m"},"samples":[{"id":1,"epoch":1,"input":[{"role":"user","content":[{"type":"text","text":"q"}]}]}]}`))
	f.Add([]byte(`"C"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, read := range []func() ([]*Sample, error){
			func() ([]*Sample, error) { return ReadInspectJSON("f.json", bytes.NewReader(data), small()) },
			func() ([]*Sample, error) { return ReadLMEval("f.jsonl", bytes.NewReader(data), small()) },
		} {
			if _, err := read(); err != nil && err.Error() == "" {
				t.Fatal("empty error message")
			}
		}
		if _, err := binary(data); err != nil && err.Error() == "" {
			t.Fatal("empty error message")
		}
	})
}
