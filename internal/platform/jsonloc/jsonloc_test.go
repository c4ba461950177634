package jsonloc

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

const doc = `{
  "items": [
    {"id": "q1", "cost": 5},
    {"id": "q2",
     "cost": 0,
     "colour": "red"}
  ],
  "alpha": 0.5,
  "random": {"method": "exact", "extra": {"deep": 1}}
}`

func TestLines(t *testing.T) {
	ix := Build([]byte(doc))
	tests := []struct {
		path string
		line int
	}{
		{"", 1},
		{"items", 2},
		{"items[0]", 3},
		{"items[0].cost", 3},
		{"items[1]", 4},
		{"items[1].cost", 5},
		{"items[1].value", 4}, // absent: its item's line
		{"items[7].cost", 2},  // absent item: the array's line
		{"alpha", 8},
		{"random.method", 9},
		{"nowhere", 1},
	}
	for _, tt := range tests {
		if got := ix.Line(tt.path); got != tt.line {
			t.Errorf("Line(%q) = %d, want %d", tt.path, got, tt.line)
		}
	}
}

func TestUnknownKeys(t *testing.T) {
	ix := Build([]byte(doc))
	allowed := []string{"items", "items[].id", "items[].cost", "alpha", "random", "random.method"}
	got := ix.UnknownKeys(allowed, nil)
	want := []string{"items[1].colour", "random.extra", "random.extra.deep"}
	if !slices.Equal(got, want) {
		t.Errorf("UnknownKeys = %v, want %v", got, want)
	}
	if got := ix.UnknownKeys(allowed, []string{"random"}); !slices.Equal(got, []string{"items[1].colour"}) {
		t.Errorf("with random free: %v", got)
	}
}

func TestBrokenJSON(t *testing.T) {
	ix := Build([]byte("{\n \"a\": 1,\n \"b\": ["))
	if ix.Line("a") != 2 || ix.Line("b") != 3 {
		t.Errorf("partial index = %v", ix)
	}
	if LineAt([]byte("a\nb\nc"), 4) != 3 || LineAt(nil, 10) != 1 {
		t.Error("LineAt")
	}
}

func TestPathAt(t *testing.T) {
	data := []byte(`{"items":[{"cost":1},{"cost":"x"},{"cost":3}]}`)
	_, offs := BuildOffsets(data)
	// encoding/json reports the second cost as Field "items.cost" at the
	// offset just past the bad value.
	at := int64(len(`{"items":[{"cost":1},{"cost":"x"`))
	if got := offs.PathAt("items.cost", at); got != "items[1].cost" {
		t.Errorf("PathAt = %q, want items[1].cost", got)
	}
	if got := offs.PathAt("nothing", at); got != "nothing" {
		t.Errorf("PathAt(unknown) = %q", got)
	}
}

func TestDescribeTypeError(t *testing.T) {
	var v struct {
		N int64   `json:"n"`
		I int32   `json:"i"`
		U uint64  `json:"u"`
		F float64 `json:"f"`
		B bool    `json:"b"`
		S string  `json:"s"`
		L []int   `json:"l"`
	}
	tests := map[string]string{
		`{"n":"x"}`:                        "must be an integer, got string",
		`{"n":1.5}`:                        "must be a whole number, got 1.5",
		`{"n":99999999999999999999999999}`: "must be an integer from -9223372036854775808 to 9223372036854775807, got 99999999999999999999999999",
		`{"i":100000000000}`:               "must be an integer from -2147483648 to 2147483647, got 100000000000",
		`{"u":-1}`:                         "must be an integer from 0 to 18446744073709551615, got -1",
		`{"i":1e20}`:                       "must be an integer from -2147483648 to 2147483647, got 1e20",
		`{"i":1e-3}`:                       "must be a whole number, got 1e-3",
		`{"i":1e3}`:                        "must be an integer written without a fraction or an exponent, got 1e3",
		`{"u":2.0}`:                        "must be an integer written without a fraction or an exponent, got 2.0",
		`{"f":true}`:                       "must be a number, got bool",
		`{"b":1}`:                          "must be true or false, got number",
		`{"s":[]}`:                         "must be a string, got array",
		`{"l":{}}`:                         "must be an array, got object",
	}
	for doc, want := range tests {
		err := json.Unmarshal([]byte(doc), &v)
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Fatalf("%s: %v", doc, err)
		}
		if got := DescribeTypeError(te); got != want {
			t.Errorf("%s: %q, want %q", doc, got, want)
		}
	}
}
