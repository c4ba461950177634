package problems

import (
	"bytes"
	"encoding/json"
)

// Problem is one problem in the canonical format: what the planner and
// solver see, and grading data the planner never sees.
type Problem struct {
	// ID is unique within its dataset.
	ID string `json:"id"`
	// Dataset names the dataset, e.g. "aime".
	Dataset string `json:"dataset"`
	// Text is what the planner and the solver see.
	Text string `json:"text"`
	// Value is the problem's worth; 0 in the file means 1.
	Value float64 `json:"value,omitempty"`
	// Grading holds what graders need (reference answer, choices, tests…),
	// opaque here and never shown to a planner.
	Grading json.RawMessage `json:"grading,omitempty"`
	// Unsolvable marks an injected unsolvable variant (SPEC §5).
	Unsolvable bool `json:"unsolvable,omitempty"`
}

// Same reports whether a and b are the same problem in every field, their
// grading data compared as JSON values (spacing and key order aside).
func Same(a, b Problem) bool {
	return a.ID == b.ID && a.Dataset == b.Dataset && a.Text == b.Text && a.Value == b.Value &&
		a.Unsolvable == b.Unsolvable && bytes.Equal(canonicalGrading(a.Grading), canonicalGrading(b.Grading))
}
