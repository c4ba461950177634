package grading

import "testing"

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
