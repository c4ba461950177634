package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// parseJSON decodes one JSON document as Python's json.loads would, but
// keeping numbers as written (json.Number) so that integers stay exact and
// "2" stays an int while "2.0" is a float.
func parseJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// functionalInputOK reports whether every non-blank line of a functional
// test's input is one JSON value (the arguments the harness decodes).
func functionalInputOK(input string) error {
	for n, line := range strings.Split(input, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if _, err := parseJSON(line); err != nil {
			return fmt.Errorf("input line %d is not JSON: %v", n+1, err)
		}
	}
	return nil
}

// compareResult judges what a functional test's process wrote on fd 1:
// {"result": <JSON>} is compared with expected as LiveCodeBench's
// `prediction == expected` (after the harness turned a returned tuple into
// a list); {"incomparable": "…"} names a value (a set, a nested tuple, an
// object) that equals no JSON value. It returns ok, or a wrong-answer
// detail, or an error for anything else (a runtime error).
func compareResult(out []byte, expected any, expectedText string) (ok bool, detail string, err error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var doc struct {
		Result       json.RawMessage `json:"result"`
		Incomparable *string         `json:"incomparable"`
	}
	if err := dec.Decode(&doc); err != nil {
		return false, "", fmt.Errorf("the test process wrote a malformed result: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return false, "", errors.New("the test process wrote data after its result")
	}
	want := pyRepr(truncate(strings.TrimSpace(expectedText), 100))
	switch {
	case doc.Incomparable != nil && doc.Result == nil:
		return false, fmt.Sprintf("expected %s, got %s", want, truncate(*doc.Incomparable, 100)), nil
	case doc.Result != nil && doc.Incomparable == nil:
		got, err := parseJSON(string(doc.Result))
		if err != nil {
			return false, "", fmt.Errorf("the test process wrote a malformed result: %v", err)
		}
		if pyEqual(got, expected) {
			return true, "", nil
		}
		return false, fmt.Sprintf("expected %s, got %s", want, pyRepr(truncate(string(doc.Result), 100))), nil
	}
	return false, "", errors.New("the test process wrote a malformed result")
}

// pyEqual is Python's == between two values json.loads produced: None,
// bool, int, float, str, list, dict. Numbers compare by value across types
// (2 == 2.0, True == 1, exactly for big integers), containers element by
// element.
func pyEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool, json.Number:
		return numbersEqual(a, b)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !pyEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !pyEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// pyNumber is a Python int (bool included) or float.
type pyNumber struct {
	isFloat bool
	f       float64
	i       *big.Int
}

// toPyNumber converts a decoded JSON bool or number; ok is false for
// anything else. A number with a fraction or an exponent is a float, as
// in Python's json.
func toPyNumber(v any) (pyNumber, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return pyNumber{i: big.NewInt(1)}, true
		}
		return pyNumber{i: big.NewInt(0)}, true
	case json.Number:
		s := string(x)
		if strings.ContainsAny(s, ".eE") {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return pyNumber{}, false
			}
			return pyNumber{isFloat: true, f: f}, true
		}
		i, ok := new(big.Int).SetString(s, 10)
		return pyNumber{i: i}, ok
	}
	return pyNumber{}, false
}

// numbersEqual compares as Python does: exactly, even between an int and
// a float.
func numbersEqual(a, b any) bool {
	x, ok1 := toPyNumber(a)
	y, ok2 := toPyNumber(b)
	if !ok1 || !ok2 {
		return false
	}
	switch {
	case x.isFloat && y.isFloat:
		return x.f == y.f
	case !x.isFloat && !y.isFloat:
		return x.i.Cmp(y.i) == 0
	case x.isFloat:
		x, y = y, x
	}
	// x is an int, y a float.
	if math.IsInf(y.f, 0) || math.IsNaN(y.f) {
		return false
	}
	r := new(big.Rat).SetFloat64(y.f)
	return r.Cmp(new(big.Rat).SetInt(x.i)) == 0
}
