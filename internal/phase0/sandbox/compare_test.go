package sandbox

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

func TestCompareStdout(t *testing.T) {
	cases := []struct {
		name, got, expected, detail string
	}{
		{"equal", "1 2\n3\n", "1 2\n3", ""},
		{"surrounding blank lines and spaces", "\n\n  5  \n\n", "5", ""},
		{"CRLF", "a\r\nb\r\n", "a\nb\n", ""},
		{"decimals", "1.0 0.50 1e2 -0", "1 .5 100 0", ""},
		{"unicode digits and underscores", "١٢٣ 1_000", "123 1000", ""},
		{"infinity", "inf -Infinity", "Infinity -inf", ""},
		{"NaN is never equal", "NaN", "nan", "expected 'nan', got 'NaN'"},
		{"no tolerance", "0.3333333", "0.33333333", "expected '0.33333333', got '0.3333333'"},
		{"different token count", "1 2", "1 2 0", "expected '1 2 0', got '1 2'"},
		{"hex is no decimal", "0x10", "16", "expected '16', got '0x10'"},
		{"case matters", "yes", "YES", "expected 'YES', got 'yes'"},
		{"second line", "1\n2\n3", "1\n5\n3", "line 2: expected '5', got '2'"},
		{"line count", "1\n2", "1", "expected 1 lines, got 2: expected '1', got '1\\n2'"},
		{"empty output", "", "1", "expected '1', got ''"},
		{"both empty", " \n", "", ""},
		{"python whitespace (\\x1c, NEL, NBSP)", "\x1c7\u00a0\u0085", "7", ""},
		{"invalid UTF-8", "\xff", "x", "expected 'x', got '\uFFFD'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := compareStdout([]byte(c.got), c.expected); got != c.detail {
				t.Errorf("compareStdout(%q, %q) = %q, want %q", c.got, c.expected, got, c.detail)
			}
		})
	}
}

func TestParsePyDecimal(t *testing.T) {
	cases := []struct {
		in   string
		ok   bool
		want pyDecimal
	}{
		{"0", true, pyDecimal{kind: 'f'}},
		{"-0.000", true, pyDecimal{kind: 'f'}},
		{"1.50", true, pyDecimal{kind: 'f', digits: "15", exp: -1}},
		{"+.5e3", true, pyDecimal{kind: 'f', digits: "5", exp: 2}},
		{"5.", true, pyDecimal{kind: 'f', digits: "5"}},
		{"1200", true, pyDecimal{kind: 'f', digits: "12", exp: 2}},
		{"_1_2_", true, pyDecimal{kind: 'f', digits: "12"}},
		{"𝟙𝟚", true, pyDecimal{kind: 'f', digits: "12"}},
		{"-INF", true, pyDecimal{kind: 'i', neg: true}},
		{"sNaN12", true, pyDecimal{kind: 'n'}},
		{"1e999999999999999999", true, pyDecimal{kind: 'f', digits: "1", exp: 999999999999999999}},
		{"1e1000000000000000000", false, pyDecimal{}},
		{".", false, pyDecimal{}},
		{"e5", false, pyDecimal{}},
		{"1e", false, pyDecimal{}},
		{"1.2.3", false, pyDecimal{}},
		{"1/2", false, pyDecimal{}},
		{"0x10", false, pyDecimal{}},
		{"infinit", false, pyDecimal{}}, //nolint:misspell // a truncated "infinity", which must not parse
		{"½", false, pyDecimal{}},
	}
	for _, c := range cases {
		got, ok := parsePyDecimal(c.in)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("parsePyDecimal(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestPyEqual(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"2", "2.0", true},
		{"true", "1", true},
		{"false", "0.0", true},
		{"true", "true", true},
		{"1", "\"1\"", false},
		{"null", "0", false},
		{"null", "null", true},
		{"[1, [2, 3]]", "[1.0, [2, 3.0]]", true},
		{"[1, 2]", "[2, 1]", false},
		{"[1]", "[1, 1]", false},
		{`{"a": 1, "b": [true]}`, `{"b": [1], "a": 1.0}`, true},
		{`{"a": 1}`, `{"a": 1, "b": 2}`, false},
		{"9007199254740993", "9007199254740992.0", false},
		{"9007199254740992", "9007199254740992.0", true},
		{"123456789012345678901234567890", "123456789012345678901234567890", true},
		{"123456789012345678901234567890", "123456789012345678901234567891", false},
		{"0.1", "0.1", true},
		{"1e400", "1e401", true},
		{"1e400", "1", false},
		{"-0.0", "0", true},
		{"[]", "{}", false},
	}
	for _, c := range cases {
		a, err1 := parseJSON(c.a)
		b, err2 := parseJSON(c.b)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s, %s: %v %v", c.a, c.b, err1, err2)
		}
		if got := pyEqual(a, b); got != c.want {
			t.Errorf("pyEqual(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestComparisonsMatchPython checks the Go ports against the Python they
// copy, on inputs where the rules are easy to get wrong: LiveCodeBench's
// line rule (strip, split, Decimal lists) and json.loads(a) ==
// json.loads(b).
func TestComparisonsMatchPython(t *testing.T) {
	py, _ := candidates("")
	if len(py) == 0 {
		t.Fatal("python3 is not installed: code grading needs it (CI installs it)")
	}
	lines := [][2]string{
		{"1.0 2", "1 2.00"}, {"1e2", "100"}, {"1E+2", "100.0"}, {".5", "0.50"}, {"5.", "5"},
		{"-0", "0"}, {"+1", "1"}, {"1_000", "1000"}, {"١٢٣", "123"}, {"𝟙", "1"},
		{"inf", "Infinity"}, {"-inf", "inf"}, {"nan", "nan"}, {"sNaN", "sNaN"}, {"NaN1", "NaN1"},
		{"0x10", "16"}, {"1/2", "0.5"}, {"1e", "1"}, {".", "."}, {"e5", "e5"},
		{"1 2", "1  2"}, {"1 2", "1 2 3"}, {"", ""}, {"abc", "abc"}, {"abc", "ABC"},
		{"1e999999999999999999", "10e999999999999999998"}, {"0.30000000000000004", "0.3"},
		{"12345678901234567890.5", "12345678901234567890.50"}, {"1\u00a02", "1 2"}, {"1\x1c2", "1 2"},
		{"١_٢", "12"}, {"_", "0"}, {"1__", "1"}, {"-", "0"},
	}
	docs := [][2]string{
		{"2", "2.0"}, {"true", "1"}, {"[1, [2.0]]", "[1.0, [2]]"}, {`{"a": [true]}`, `{"a": [1]}`},
		{"9007199254740993", "9007199254740992.0"}, {"1e400", "1e400"}, {"1e-400", "0"}, {"null", "0"},
		{`"a"`, `"a"`}, {"[1, 2]", "[1, 2, 3]"}, {"0.1", "0.1000000000000000055511151231257827"},
		{"123456789012345678901234567890", "1.2345678901234568e29"}, {"-0.0", "0"}, {"[]", "{}"},
	}
	input, _ := json.Marshal(map[string]any{"lines": lines, "docs": docs})
	script := `
import json, sys
from decimal import Decimal
def lcb_line(a, b):
    if a == b:
        return True
    try:
        da = [Decimal(x) for x in a.split()]
        db = [Decimal(x) for x in b.split()]
    except Exception:
        return False
    try:
        return da == db
    except Exception:
        return False
data = json.load(sys.stdin)
out = {"lines": [lcb_line(a.strip(), b.strip()) for a, b in data["lines"]],
       "docs": [json.loads(a) == json.loads(b) for a, b in data["docs"]],
       "strip": [[l.strip() for l in s.strip().split("\n")] for s in ["\x1c a \x85\n\u3000b\x0b", " \n "]]}
print(json.dumps(out))
`
	cmd := exec.Command(py[0], "-c", script)
	cmd.Stdin = strings.NewReader(string(input))
	raw, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Lines []bool     `json:"lines"`
		Docs  []bool     `json:"docs"`
		Strip [][]string `json:"strip"`
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		a, b := strings.TrimFunc(l[0], pyIsSpace), strings.TrimFunc(l[1], pyIsSpace)
		if got := a == b || decimalsEqual(a, b); got != want.Lines[i] {
			t.Errorf("line %q vs %q: Go %v, Python %v", l[0], l[1], got, want.Lines[i])
		}
	}
	for i, d := range docs {
		a, _ := parseJSON(d[0])
		b, _ := parseJSON(d[1])
		if got := pyEqual(a, b); got != want.Docs[i] {
			t.Errorf("json %s == %s: Go %v, Python %v", d[0], d[1], got, want.Docs[i])
		}
	}
	for i, s := range []string{"\x1c a \u0085\n\u3000b\x0b", " \n "} {
		if got := strippedLines(s); strings.Join(got, "|") != strings.Join(want.Strip[i], "|") {
			t.Errorf("strippedLines(%q) = %q, Python %q", s, got, want.Strip[i])
		}
	}
}

func TestCompareResult(t *testing.T) {
	want, _ := parseJSON("[1, 2]")
	cases := []struct {
		name, out string
		ok        bool
		detail    string
		err       bool
	}{
		{"equal", `{"result": [1.0, 2]}`, true, "", false},
		{"unequal", `{"result": [2, 1]}`, false, "expected '[1, 2]', got '[2, 1]'", false},
		{"incomparable", `{"incomparable": "a value of type set"}`, false, "expected '[1, 2]', got a value of type set", false},
		{"both", `{"result": [1, 2], "incomparable": "x"}`, false, "", true},
		{"neither", `{}`, false, "", true},
		{"unknown field", `{"result": [1, 2], "pass": true}`, false, "", true},
		{"trailing data", `{"result": [1, 2]} {"result": [1, 2]}`, false, "", true},
		{"not JSON", `print stuff`, false, "", true},
		{"empty", ``, false, "", true},
	}
	for _, c := range cases {
		ok, detail, err := compareResult([]byte(c.out), want, "[1, 2]")
		if ok != c.ok || detail != c.detail || (err != nil) != c.err {
			t.Errorf("%s: got %v %q %v; want %v %q error=%v", c.name, ok, detail, err, c.ok, c.detail, c.err)
		}
	}
}
