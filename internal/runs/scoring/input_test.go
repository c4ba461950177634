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
// gigabytes to reject (the line index was quadratic) are rejected at once,
// before any service is called.
func TestParseInputFailsFast(t *testing.T) {
	var many bytes.Buffer
	many.WriteString("{\"alpha\": 0.5, \"plan\": [],\n\"items\": [\n")
	for i := range protoconv.MaxItems + 1 {
		if i > 0 {
			many.WriteString(",\n")
		}
		fmt.Fprintf(&many, `{"id": "p%d", "cost": 10, "correct": true}`, i)
	}
	many.WriteString("]}\n")
	tests := []struct {
		name string
		doc  []byte
		want string
	}{
		{"too many items", many.Bytes(), fmt.Sprintf("big.json:2: items: at most %d items per request, got %d", protoconv.MaxItems, protoconv.MaxItems+1)},
		{"160 KB of nested arrays", []byte(strings.Repeat("[", 160_000)), "big.json:1: invalid JSON: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := scoring.ParseInput("big.json", tt.doc)
			took := time.Since(start)
			var inputErr *scoring.InputError
			if !errors.As(err, &inputErr) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("err = %.200v, want an input error starting %q", err, tt.want)
			}
			// Under a second on a quiet machine, a few under the race
			// detector; 24 s before the index was linear.
			if took > 10*time.Second {
				t.Errorf("rejecting it took %v", took)
			}
			t.Logf("rejected in %v", took)
		})
	}
}
