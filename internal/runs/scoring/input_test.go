package scoring_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/runs/scoring"
)

// TestParseInputFailsFast: documents that took tens of seconds and
// gigabytes to reject (the line index was quadratic) are rejected, with
// their line, before any service is called. How fast is
// BenchmarkParseInputRejects (under a second; 24 s when the index was
// quadratic); the minutes allowed here only catch a hang.
func TestParseInputFailsFast(t *testing.T) {
	for _, tt := range oversizedInputs() {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := scoring.ParseInput("big.json", tt.doc)
			took := time.Since(start)
			var inputErr *scoring.InputError
			if !errors.As(err, &inputErr) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("err = %.200v, want an input error starting %q", err, tt.want)
			}
			if took > 5*time.Minute {
				t.Errorf("rejecting it took %v", took)
			}
			t.Logf("rejected in %v", took)
		})
	}
}

// BenchmarkParseInputRejects times the rejection of each oversized input.
func BenchmarkParseInputRejects(b *testing.B) {
	for _, tt := range oversizedInputs() {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := scoring.ParseInput("big.json", tt.doc); err == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}

// oversizedInput is a document ParseInput must reject and the start of
// its error.
type oversizedInput struct {
	name string
	doc  []byte
	want string
}

// oversizedInputs are documents over the input's bounds.
func oversizedInputs() []oversizedInput {
	var many bytes.Buffer
	many.WriteString("{\"alpha\": 0.5, \"plan\": [],\n\"items\": [\n")
	for i := range protoconv.MaxItems + 1 {
		if i > 0 {
			many.WriteString(",\n")
		}
		fmt.Fprintf(&many, `{"id": "p%d", "cost": 10, "correct": true}`, i)
	}
	many.WriteString("]}\n")
	return []oversizedInput{
		{"too many items", many.Bytes(), fmt.Sprintf("big.json:2: items: at most %d items per request, got %d", protoconv.MaxItems, protoconv.MaxItems+1)},
		{"160 KB of nested arrays", []byte(strings.Repeat("[", 160_000)), "big.json:1: invalid JSON: "},
	}
}

// TestParseInputNulls: null as an element of a list is a problem with its
// line and path, as protojson refuses it over HTTP/JSON; null as the value
// of a key reads as the key unset, as protojson reads it.
func TestParseInputNulls(t *testing.T) {
	item := `{"id": "p1", "cost": 10, "correct": true}`
	tests := []struct {
		name, doc, want string // want "" means accepted
	}{
		{"null item", "{\"alpha\": 0.5, \"plan\": [],\n\"items\": [\n" + item + ",\nnull]}", "in.json:4: items[1]: null is not allowed in a list"},
		{"null step", "{\"alpha\": 0.5, \"items\": [" + item + "],\n\"plan\": [null,\n{\"id\": \"p1\", \"tokens\": 5}]}", "in.json:2: plan[0]: null is not allowed in a list"},
		{"null before a comma on the next line", "{\"alpha\": 0.5, \"items\": [" + item + "], \"plan\": [\nnull\n, {\"id\": \"p1\", \"tokens\": 5}]}", "in.json:2: plan[0]: null is not allowed in a list"},
		{"null values", `{"alpha": null, "budget": 5, "random": null, "items": [{"id": "p1", "cost": 10, "correct": true, "value": null}], "plan": []}`, ""},
		{"null plan", `{"alpha": 0.5, "items": [` + item + `], "plan": null}`, ""},
		// A byte-order mark at the start is ignored, and lines stay the file's.
		{"byte-order mark", "\ufeff{\"alpha\": 0.5, \"plan\": [],\n\"items\": [\n" + item + ",\nnull]}", "in.json:4: items[1]: null is not allowed in a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scoring.ParseInput("in.json", []byte(tt.doc))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
				t.Errorf("err = %v, want it to start %q", err, tt.want)
			}
		})
	}
}
