package grading

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func exact(answer string) Spec {
	return Spec{Kind: KindExact, Answer: answer, AnswerType: "exactMatch"}
}

func TestGradeExact(t *testing.T) {
	cases := []struct {
		name      string
		spec      Spec
		content   string
		outcome   Outcome
		extracted string
	}{
		{"hle format", exact("Paris"), "Explanation: The capital of France is Paris.\nAnswer: Paris\nConfidence: 90%", OutcomeCorrect, "paris"},
		{"hle format wrong", exact("Paris"), "Explanation: It must be Lyon.\nAnswer: Lyon\nConfidence: 40%", OutcomeIncorrect, "lyon"},
		{"bold label latex", exact(`\frac{\pi}{2}`), "**Answer:** $\\frac{\\pi}{2}$", OutcomeCorrect, `\frac{\pi}{2}`},
		{"curly quotes and period", exact("hello world"), "Final answer: \u201cHello   World\u201d.", OutcomeCorrect, "hello world"},
		{"full-width", exact("ABC-12"), "Answer: \uff21\uff22\uff23\u221212", OutcomeCorrect, "abc-12"},
		{"superscript", exact("x^2"), "Answer: x\u00b2", OutcomeCorrect, "x^2"},
		{"backticks", exact("foo_bar"), "Answer: `foo_bar`", OutcomeCorrect, "foo_bar"},
		{"abbreviation with period", exact("St. Louis"), "Answer: St. Louis.", OutcomeCorrect, "st. louis"},
		{"boxed", exact("42"), "Thus the count is \\boxed{42}.", OutcomeCorrect, "42"},
		{"boxed text", exact("Hydrogen"), "The element is $\\boxed{\\text{hydrogen}}$", OutcomeCorrect, "hydrogen"},
		{"label inside boxed", exact("42"), "Answer: $\\boxed{42}$", OutcomeCorrect, "42"},
		{"label beats boxed", exact("7"), "Maybe \\boxed{6}.\nAnswer: 7\nConfidence: 60%", OutcomeCorrect, "7"},
		{"label beats later statement", exact("7"), "Answer: 7\nConfidence: 60% (the answer is likely right)", OutcomeCorrect, "7"},
		{"label on its own line", exact("Paris"), "Answer:\n\nParis", OutcomeCorrect, "paris"},
		{"label then display", exact("x^2+1"), "**Answer:**\n$$\nx^2+1\n$$\nConfidence: 70%", OutcomeCorrect, "x^2+1"},
		{"heading", exact("Paris"), "## Final Answer\n**Paris**", OutcomeCorrect, "paris"},
		{"last label wins", exact("8"), "Answer: 7\nHmm, recount.\nAnswer: 8", OutcomeCorrect, "8"},
		{"inline statement", exact("Paris"), "So the answer is Paris", OutcomeCorrect, "paris"},
		{"last line", exact("Paris"), "The river Seine flows through it.\n\nParis\n", OutcomeCorrect, "paris"},
		{"last line skips confidence", exact("Paris"), "Paris\nConfidence: 70%", OutcomeCorrect, "paris"},
		{"rational", exact("1/2"), "Answer: 0.5", OutcomeCorrect, "0.5"},
		{"numbers differ", exact("1/2"), "Answer: 0.51", OutcomeIncorrect, "0.51"},
		{"equivalent but not equal", exact("2 moles"), "Answer: two moles", OutcomeIncorrect, "two moles"},
		{"empty", exact("Paris"), "", OutcomeNoAnswer, ""},
		{"only white space and markup", exact("Paris"), "\n\n**\n", OutcomeNoAnswer, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkVerdict(t, GradeExact(c.spec, c.content), c.outcome, c.extracted)
		})
	}
}

func TestGradeExactAfterStripThinking(t *testing.T) {
	v := GradeExact(exact("6"), StripThinking("<think>Answer: 5? Let me recheck.</think>\nExplanation: recount.\nAnswer: 6\nConfidence: 80%"))
	checkVerdict(t, v, OutcomeCorrect, "6")
}

// fakeJudge records its calls and answers as told.
type fakeJudge struct {
	same  bool
	err   error
	calls []string
}

func (f *fakeJudge) Equivalent(_ context.Context, question, reference, response string) (Judgment, error) {
	f.calls = append(f.calls, question+"|"+reference+"|"+response)
	return Judgment{Same: f.same, Why: "units differ only in spelling", Call: &JudgeCall{Endpoint: "judge", PromptTokens: 100, OutputTokens: 7}}, f.err
}

// TestGraderExactJudge: the Grader asks its judge only for a mismatch
// with an extracted answer, and a judge error is a grading error.
func TestGraderExactJudge(t *testing.T) {
	ctx := context.Background()
	spec := exact("2 moles")
	content := "Explanation: ...\nAnswer: two moles\nConfidence: 90%"

	j := &fakeJudge{same: true}
	v, err := New(nil, j).Grade(ctx, spec, "How many moles?", content)
	if err != nil || !v.Correct() || !strings.HasPrefix(v.Detail, "judge: ") || v.Extracted != "two moles" {
		t.Errorf("judge yes: %+v, %v", v, err)
	}
	if len(j.calls) != 1 || j.calls[0] != "How many moles?|2 moles|"+content {
		t.Errorf("judge calls %q", j.calls)
	}

	j = &fakeJudge{same: false}
	if v, err := New(nil, j).Grade(ctx, spec, "q", content); err != nil || v.Outcome != OutcomeIncorrect || v.Judge == nil || v.Judge.PromptTokens != 100 {
		t.Errorf("judge no: %+v, %v", v, err)
	}

	j = &fakeJudge{same: true}
	if v, err := New(nil, j).Grade(ctx, spec, "q", "Answer: 2 moles"); err != nil || !v.Correct() || len(j.calls) != 0 || v.Judge != nil {
		t.Errorf("exact match: %+v, %v, %d judge calls", v, err, len(j.calls))
	}
	if v, err := New(nil, j).Grade(ctx, spec, "q", ""); err != nil || v.Outcome != OutcomeNoAnswer || len(j.calls) != 0 {
		t.Errorf("no answer: %+v, %v, %d judge calls", v, err, len(j.calls))
	}

	boom := errors.New("judge unreachable")
	// A call that answered without a usable verdict is billed all the same.
	if v, err := New(nil, &fakeJudge{err: boom}).Grade(ctx, spec, "q", content); !errors.Is(err, boom) || v.Judge == nil || v.Judge.OutputTokens != 7 {
		t.Errorf("judge error: %+v, %v", v, err)
	}
}
