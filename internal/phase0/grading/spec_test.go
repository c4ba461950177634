package grading

import (
	"fmt"
	"testing"
)

func TestPublicTestsOnly(t *testing.T) {
	tc := []TestCase{{Input: "1", Output: "1"}}
	tests := []struct {
		name string
		spec Spec
		want bool
	}{
		{"code, public only", Spec{Kind: KindCode, Code: &CodeSpec{TestType: TestStdin, Public: tc}}, true},
		{"code with hidden tests", Spec{Kind: KindCode, Code: &CodeSpec{TestType: TestStdin, Public: tc, Private: tc}}, false},
		{"code with hidden tests only", Spec{Kind: KindCode, Code: &CodeSpec{TestType: TestStdin, Private: tc}}, false},
		{"math", Spec{Kind: KindMath, Answer: "1"}, false},
		{"code without its data", Spec{Kind: KindCode}, false},
	}
	for _, tt := range tests {
		if got := tt.spec.PublicTestsOnly(); got != tt.want {
			t.Errorf("%s: PublicTestsOnly() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestParseSpecRefusesKeysDifferingInCase: json.Unmarshal matches keys
// ignoring case, so two such keys would grade by whichever comes last.
func TestParseSpecRefusesKeysDifferingInCase(t *testing.T) {
	tests := []struct {
		raw, wantErr string
	}{
		{`{"kind":"exact","answer":"1"}`, ""},
		{`{"kind":"exact","Answer":"1"}`, ""},
		{`{"kind":"exact","answer":"1","Answer":"2"}`, `grading: keys "Answer" and "answer" differ only in case; keep one`},
		{`{"KIND":"math","kind":"exact","answer":"1"}`, `grading: keys "KIND" and "kind" differ only in case; keep one`},
		// Nested objects are read the same way: a test case's or the
		// shuffle's keys too.
		{`{"kind":"code","code":{"testtype":"stdin","public_tests":[{"input":"1","output":"2"}]}}`, ""},
		{`{"kind":"code","code":{"testtype":"stdin","public_tests":[{"input":"1","output":"2"},{"input":"1","output":"2","Output":"3"}]}}`, `grading.code.public_tests[1]: keys "Output" and "output" differ only in case; keep one`},
		{`{"kind":"code","code":{"testtype":"stdin","TestType":"functional","public_tests":[{"input":"1","output":"2"}]}}`, `grading.code: keys "TestType" and "testtype" differ only in case; keep one`},
		{`{"kind":"choice","answer":"B","choices":["x","y"],"shuffle":{"seed":1,"Seed":2,"permutation":[1,0]}}`, `grading.shuffle: keys "Seed" and "seed" differ only in case; keep one`},
		{`{"kind":"choice","answer":"B","choices":["a","A"]}`, ""}, // values may differ only in case
	}
	for _, tt := range tests {
		_, err := ParseSpec([]byte(tt.raw))
		if got := fmt.Sprint(err); (tt.wantErr == "" && err != nil) || (tt.wantErr != "" && got != tt.wantErr) {
			t.Errorf("ParseSpec(%s) = %v, want %q", tt.raw, err, tt.wantErr)
		}
	}
}
