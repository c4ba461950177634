package scoring

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/triage-eval/triage/internal/platform/jsonloc"
	"github.com/triage-eval/triage/internal/platform/protoconv"
)

// Input is the document `triage score` reads.
type Input struct {
	// Items is the pool with the solver's ground truth.
	Items []Item `json:"items"`
	// Alpha gives the budget as a fraction of Σ cost; exclusive with Budget.
	Alpha *float64 `json:"alpha,omitempty"`
	// Budget gives the budget in tokens; exclusive with Alpha.
	Budget *int64 `json:"budget,omitempty"`
	// Plan is the plan to score, in execution order.
	Plan []Step `json:"plan"`
	// Random configures the random reference; nil means Monte Carlo with
	// 1000 samples and seed 0.
	Random *Random `json:"random,omitempty"`

	lines jsonloc.Index
}

// Item is one pool item.
type Item struct {
	// ID identifies the problem.
	ID string `json:"id"`
	// Cost is the solver's output tokens on it.
	Cost int64 `json:"cost"`
	// Correct is the solver's outcome.
	Correct bool `json:"correct"`
	// Value is the item's worth; nil means 1.
	Value *float64 `json:"value,omitempty"`
	// Unsolvable marks an injected unsolvable item (for detection and waste).
	Unsolvable bool `json:"unsolvable,omitempty"`
}

// Step is one plan entry.
type Step struct {
	// ID names the problem.
	ID string `json:"id"`
	// Tokens is the allocation.
	Tokens int64 `json:"tokens"`
}

// Random configures the random reference.
type Random struct {
	// Method is "monte_carlo" (default) or "exact".
	Method string `json:"method,omitempty"`
	// Samples is the Monte Carlo sample count; 0 means 1000.
	Samples int32 `json:"samples,omitempty"`
	// Seed is the Monte Carlo seed.
	Seed uint64 `json:"seed,omitempty"`
}

// Random methods accepted in Input.
const (
	MethodMonteCarlo = "monte_carlo"
	MethodExact      = "exact"
)

// inputKeys are the paths Input allows, array indexes written as "[]".
var inputKeys = []string{
	"items", "items[].id", "items[].cost", "items[].correct", "items[].value", "items[].unsolvable",
	"alpha", "budget", "plan", "plan[].id", "plan[].tokens",
	"random", "random.method", "random.samples", "random.seed",
}

// Problem is one thing wrong with an input document.
type Problem struct {
	// Line is the 1-based line of the offending value, 0 if unknown.
	Line int
	// Field is the value's path, e.g. "items[3].cost"; "" for the document.
	Field string
	// Reason says what is wrong.
	Reason string
}

// InputError lists the problems of one input document.
type InputError struct {
	// File names the document ("-" for standard input).
	File string
	// Problems are in document order where known.
	Problems []Problem
}

// Error formats one "file:line: field: reason" line per problem.
func (e *InputError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		b.WriteString(": ")
		if p.Field != "" {
			b.WriteString(p.Field + ": ")
		}
		b.WriteString(p.Reason)
	}
	return b.String()
}

// ParseInput decodes and checks the document in data; file names it in
// errors. Problems the services find later are reported the same way.
func ParseInput(file string, data []byte) (*Input, error) {
	data = jsonloc.BlankBOM(data)
	lines, offsets := jsonloc.BuildOffsets(data)
	fail := func(problems ...Problem) error { return &InputError{File: file, Problems: problems} }
	dec := json.NewDecoder(bytes.NewReader(data))
	in := &Input{lines: lines}
	if err := dec.Decode(in); err != nil {
		line, field, reason := jsonloc.DescribeDecodeError(data, offsets, err)
		return nil, fail(Problem{Line: line, Field: field, Reason: reason})
	}
	if dec.More() {
		return nil, fail(Problem{Line: jsonloc.LineAt(data, dec.InputOffset()), Reason: "unexpected data after the JSON document"})
	}
	problems := strictProblems(data)
	if len(in.Items) > protoconv.MaxItems {
		// The services would refuse it too; say so before sending it.
		problems = append(problems, Problem{Line: lines.Line("items"), Field: "items", Reason: fmt.Sprintf("at most %d items per request, got %d", protoconv.MaxItems, len(in.Items))})
	}
	for _, path := range lines.UnknownKeys(inputKeys, nil) {
		problems = append(problems, Problem{Line: lines.Line(path), Field: path, Reason: "unknown key"})
	}
	switch {
	case in.Alpha != nil && in.Budget != nil:
		problems = append(problems, Problem{Line: lines.Line("budget"), Field: "budget", Reason: `give either "alpha" or "budget", not both`})
	case in.Alpha == nil && in.Budget == nil:
		problems = append(problems, Problem{Line: 1, Reason: `a budget is required: "alpha" (fraction of Σ cost) or "budget" (tokens)`})
	}
	if _, ok := lines["plan"]; !ok {
		problems = append(problems, Problem{Line: 1, Field: "plan", Reason: `required (use [] for a plan that attempts nothing)`})
	}
	if in.Random != nil && !slices.Contains([]string{"", MethodMonteCarlo, MethodExact}, in.Random.Method) {
		problems = append(problems, Problem{Line: lines.Line("random.method"), Field: "random.method", Reason: fmt.Sprintf("must be %q or %q, got %q", MethodMonteCarlo, MethodExact, in.Random.Method)})
	}
	if len(problems) > 0 {
		return nil, fail(problems...)
	}
	return in, nil
}
