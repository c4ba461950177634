package grading

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Kind selects a grader.
type Kind string

// Grader kinds.
const (
	// KindMath grades a mathematical final answer.
	KindMath Kind = "math"
	// KindChoice grades a multiple-choice letter.
	KindChoice Kind = "choice"
	// KindExact grades an exact short answer (HLE exactMatch).
	KindExact Kind = "exact"
	// KindCode runs a program against test cases.
	KindCode Kind = "code"
)

// Spec is a problem's grading data, as importers write it into the
// canonical problem file's "grading" object. Only the fields of its Kind are
// set.
type Spec struct {
	// Kind selects the grader.
	Kind Kind `json:"kind"`
	// Answer is the reference answer: the final answer (math, exact) or the
	// correct letter (choice).
	Answer string `json:"answer,omitempty"`
	// Integer compares math answers as integers (AIME).
	Integer bool `json:"integer,omitempty"`
	// Choices are the options in the order shown to the solver (choice);
	// empty when the options are part of the problem text (HLE).
	Choices []string `json:"choices,omitempty"`
	// Shuffle records how the options were shuffled (choice).
	Shuffle *Shuffle `json:"shuffle,omitempty"`
	// AnswerType is the source's answer type, e.g. HLE's "exactMatch".
	AnswerType string `json:"answer_type,omitempty"`
	// Code holds the test cases of a code problem.
	Code *CodeSpec `json:"code,omitempty"`
}

// Shuffle records a seeded option shuffle, so grading is reproducible.
type Shuffle struct {
	// Seed is the seed the permutation was drawn with.
	Seed uint64 `json:"seed"`
	// Permutation[k] is the source index of the option shown at position k.
	Permutation []int `json:"permutation"`
}

// TestType says how a code test feeds its input.
type TestType string

// Code test types (LiveCodeBench).
const (
	// TestStdin feeds the input on standard input and compares standard
	// output.
	TestStdin TestType = "stdin"
	// TestFunctional calls a method of class Solution with the input's
	// lines as JSON arguments and compares the JSON result.
	TestFunctional TestType = "functional"
)

// CodeSpec is what the code grader needs.
type CodeSpec struct {
	// TestType is the problem's test type.
	TestType TestType `json:"testtype"`
	// FuncName is the method to call for functional tests.
	FuncName string `json:"func_name,omitempty"`
	// StarterCode is the code the solver was given to complete.
	StarterCode string `json:"starter_code,omitempty"`
	// Public are the public test cases.
	Public []TestCase `json:"public_tests"`
	// Private are the hidden test cases; may be empty.
	Private []TestCase `json:"private_tests,omitempty"`
}

// PublicTestsOnly reports a code problem without hidden (private) test
// cases: it is graded on its public tests alone, which the solver may have
// seen (LiveCodeBench's are the statement's examples), so a program that
// looks its input up among them passes. Other kinds report false.
func (s Spec) PublicTestsOnly() bool {
	return s.Kind == KindCode && s.Code != nil && len(s.Code.Private) == 0
}

// TestCase is one input/expected-output pair.
type TestCase struct {
	// Input is the stdin text, or one JSON value per line (functional).
	Input string `json:"input"`
	// Output is the expected stdout, or the expected JSON result.
	Output string `json:"output"`
}

// ParseSpec decodes and checks grading data, naming the field at fault.
func ParseSpec(raw json.RawMessage) (Spec, error) {
	if len(raw) == 0 {
		return Spec{}, fmt.Errorf("grading: required")
	}
	var s Spec
	if err := json.Unmarshal(raw, &s); err != nil {
		return Spec{}, fmt.Errorf("grading: %v", err)
	}
	if err := caseDistinctKeys(raw); err != nil {
		return Spec{}, err
	}
	return s, s.Validate()
}

// caseDistinctKeys refuses an object, at any depth, with two keys that
// differ only in case: json.Unmarshal matches keys ignoring case, the last
// one winning, so {"answer":"1","Answer":"2"} would grade by "2" while a
// reader (and the problem's digest, which sorts keys) sees "1" first; the
// same holds inside shuffle, choices or a test case.
func caseDistinctKeys(raw json.RawMessage) error {
	return caseDistinctKeysAt("grading", raw, specDepth)
}

// specDepth is how deep a Spec's fields go (grading, code, public_tests,
// a test case): keys deeper than that are read by nothing that grades, and
// not looking at them keeps the check linear in the spec's size.
const specDepth = 4

// caseDistinctKeysAt is caseDistinctKeys of the value raw at path (named as
// the errors of Validate name fields: grading.shuffle,
// grading.code.public_tests[2]), looking depth levels down.
func caseDistinctKeysAt(path string, raw json.RawMessage, depth int) error {
	if depth == 0 {
		return nil
	}
	switch v := bytes.TrimSpace(raw); {
	case len(v) > 0 && v[0] == '[':
		var list []json.RawMessage
		_ = json.Unmarshal(v, &list) // not JSON: Unmarshal into Spec said so already
		for i, v := range list {
			if err := caseDistinctKeysAt(fmt.Sprintf("%s[%d]", path, i), v, depth-1); err != nil {
				return err
			}
		}
		return nil
	case len(v) == 0 || v[0] != '{':
		return nil // a scalar
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(raw, &keys) // not JSON: Unmarshal into Spec said so already
	seen := make(map[string]string, len(keys))
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if other, ok := seen[strings.ToLower(k)]; ok {
			return fmt.Errorf("%s: keys %q and %q differ only in case; keep one", path, other, k)
		}
		seen[strings.ToLower(k)] = k
		if err := caseDistinctKeysAt(path+"."+k, keys[k], depth-1); err != nil {
			return err
		}
	}
	return nil
}

// Validate reports the first missing or inconsistent field.
func (s Spec) Validate() error {
	switch s.Kind {
	case KindMath, KindExact:
		if s.Answer == "" {
			return fmt.Errorf("grading.answer: required for kind %q", s.Kind)
		}
	case KindChoice:
		if len(s.Answer) != 1 || s.Answer[0] < 'A' || s.Answer[0] > 'Z' {
			return fmt.Errorf("grading.answer: must be one capital letter, got %q", s.Answer)
		}
		if n := len(s.Choices); n > 0 && int(s.Answer[0]-'A') >= n {
			return fmt.Errorf("grading.answer: %q is beyond the %d choices", s.Answer, n)
		}
		if sh := s.Shuffle; sh != nil && len(sh.Permutation) != len(s.Choices) {
			return fmt.Errorf("grading.shuffle.permutation: has %d entries for %d choices", len(sh.Permutation), len(s.Choices))
		}
	case KindCode:
		c := s.Code
		if c == nil {
			return fmt.Errorf("grading.code: required for kind %q", s.Kind)
		}
		if c.TestType != TestStdin && c.TestType != TestFunctional {
			return fmt.Errorf("grading.code.testtype: must be stdin or functional, got %q", c.TestType)
		}
		if c.TestType == TestFunctional && c.FuncName == "" {
			return fmt.Errorf("grading.code.func_name: required for functional tests")
		}
		if len(c.Public)+len(c.Private) == 0 {
			return fmt.Errorf("grading.code.public_tests: at least one test case is required")
		}
	case "":
		return fmt.Errorf("grading.kind: required")
	default:
		return fmt.Errorf("grading.kind: must be math, choice, exact or code, got %q", s.Kind)
	}
	return nil
}

// MayGoToJudge reports whether an answer graded by s may go to a grading
// judge (a Grader's Judge): an exact answer normalized matching cannot
// settle. The one rule for which answers a run may pay a judge for.
func (s Spec) MayGoToJudge() bool { return s.Kind == KindExact }
