package prompts

import (
	"strings"
	"testing"
)

func TestJudgePrompt(t *testing.T) {
	tmpl, err := Judge()
	if err != nil {
		t.Fatal(err)
	}
	if tmpl.Name != "judge/exact" || len(tmpl.SHA256) != 64 {
		t.Errorf("name %q hash %q", tmpl.Name, tmpl.SHA256)
	}
	for _, p := range []string{"{question}", "{response}", "{correct_answer}"} {
		if strings.Count(tmpl.Text(), p) != 1 {
			t.Errorf("template has %d %s, want 1", strings.Count(tmpl.Text(), p), p)
		}
	}
	// A value that contains a placeholder is inserted verbatim.
	got := tmpl.JudgePrompt("What is 2+2?", "4", "I say {correct_answer}. Answer: 5")
	for _, want := range []string{
		"[question]: What is 2+2?\n",
		"[response]: I say {correct_answer}. Answer: 5\n",
		"[correct_answer]: 4\n",
		`"correct": "yes"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered prompt lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "{question}") || strings.Contains(got, "{response}") {
		t.Errorf("placeholder left in:\n%s", got)
	}
}
