package grading

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestGradeCode(t *testing.T) {
	spec := Spec{Kind: KindCode, Code: &CodeSpec{
		TestType: TestStdin,
		Public:   []TestCase{{Input: "2\n", Output: "4\n"}},
	}}
	var got []string
	runner := CodeRunnerFunc(func(_ context.Context, program string, c *CodeSpec) (Verdict, error) {
		got = append(got, program)
		if c != spec.Code {
			t.Errorf("runner got spec %p, want %p", c, spec.Code)
		}
		switch {
		case strings.Contains(program, "boom"):
			return Verdict{}, errors.New("sandbox unavailable")
		case strings.Contains(program, "* 2"):
			return Verdict{Outcome: OutcomeCorrect, Detail: "passed 1 of 1 tests"}, nil
		default:
			return Verdict{Outcome: OutcomeWrongAnswer, Detail: "test 1 of 1 (public): expected '4', got '3'"}, nil
		}
	})
	g := New(runner, nil)
	ctx := context.Background()

	cases := []struct {
		name, content string
		want          Outcome
		program       string
		wantErr       bool
	}{
		{"correct", "Double it:\n```python\nprint(int(input()) * 2)\n```", OutcomeCorrect, "print(int(input()) * 2)\n", false},
		{"wrong", "```python\nprint(int(input()) + 1)\n```", OutcomeWrongAnswer, "print(int(input()) + 1)\n", false},
		{"no block", "Just multiply the input by two and print it.", OutcomeNoAnswer, "", false},
		{"truncated block", "```python\nprint(int(input(", OutcomeNoAnswer, "", false},
		{"runner error", "```python\nboom()\n```", "", "boom()\n", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got = nil
			v, err := g.Grade(ctx, spec, "Double the number.", c.content)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if c.wantErr {
				return
			}
			if v.Outcome != c.want || v.Extracted != c.program {
				t.Errorf("got %+v, want %s with program %q", v, c.want, c.program)
			}
			if c.program == "" && len(got) != 0 {
				t.Errorf("the runner was called without a program: %q", got)
			}
		})
	}
}

func TestGradeCodeWithoutRunner(t *testing.T) {
	spec := Spec{Kind: KindCode, Code: &CodeSpec{TestType: TestStdin, Public: []TestCase{{Input: "", Output: ""}}}}
	if _, err := New(nil, nil).Grade(context.Background(), spec, "", "```python\nprint()\n```"); err == nil {
		t.Error("a code item without a sandbox graded without error")
	}
}
