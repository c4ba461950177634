package prompts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/testkit/golden"
)

// TestDefaultIsThePapersPrompt compares the default template with the
// paper's appendix listing, copied verbatim from the LaTeX source into
// testdata: with unit values the only placeholder that differs is
// {points_rule}.
func TestDefaultIsThePapersPrompt(t *testing.T) {
	paper, err := os.ReadFile(filepath.Join("testdata", "paper_planner_prompt.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := Planner(vocab.Default)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Replace(tmpl.Text(), "{points_rule}", "Each problem is worth 1 point.", 1)
	if got != string(paper) {
		t.Errorf("default template differs from the paper:\n--- template\n%s\n--- paper\n%s", got, paper)
	}
}

// TestVariantsReplaceOnlyTheOpening: every variant has the default's body
// and a different first paragraph.
func TestVariantsReplaceOnlyTheOpening(t *testing.T) {
	def, _ := Planner(vocab.Default)
	_, body, _ := strings.Cut(def.Text(), "\n\n")
	seen := map[string]vocab.Variant{}
	for _, v := range vocab.Variants() {
		tmpl, err := Planner(v)
		if err != nil {
			t.Fatal(err)
		}
		opening, rest, _ := strings.Cut(tmpl.Text(), "\n\n")
		if rest != body {
			t.Errorf("variant %s changes more than the opening", v)
		}
		if other, dup := seen[opening]; dup {
			t.Errorf("variants %s and %s share an opening", v, other)
		}
		seen[opening] = v
		if tmpl.Name != "planner/"+string(v) || len(tmpl.SHA256) != 64 {
			t.Errorf("variant %s: name %q hash %q", v, tmpl.Name, tmpl.SHA256)
		}
	}
	if len(seen) != 4 {
		t.Errorf("%d variants, want default, A, B, C", len(seen))
	}
	if _, err := Planner("D"); err == nil {
		t.Error("unknown variant accepted")
	}
}

func TestRenderGolden(t *testing.T) {
	problems := []Problem{
		{ID: "p1", Text: "Find the number of ordered pairs (m, n) such that m + n = 10.", Value: 1},
		{ID: "p2", Text: "Compute 2^10 mod 7.", Value: 1},
	}
	weighted := append([]Problem(nil), problems...)
	weighted[1].Value = 2.5
	cases := []struct {
		name     string
		variant  vocab.Variant
		problems []Problem
	}{
		{"planner_default", vocab.Default, problems},
		{"planner_A", vocab.Neutral, problems},
		{"planner_B", vocab.Agent, problems},
		{"planner_C", vocab.Exam, problems},
		{"planner_default_weighted", vocab.Default, weighted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmpl, err := Planner(c.variant)
			if err != nil {
				t.Fatal(err)
			}
			got := tmpl.Render(PlannerInput{Problems: c.problems, Budget: 12000, Domain: DomainLabel("aime")})
			if strings.Contains(got, "{") && strings.Contains(got, "{n}") {
				t.Error("placeholder left unrendered")
			}
			checkGolden(t, c.name+".golden", got)
		})
	}
	banner, err := BudgetAwareBanner()
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "budget_aware_banner.golden", banner.Banner(1500))
}

// checkGolden compares got with testdata/name.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.String(t, filepath.Join("testdata", name), got)
}

func TestDomainLabel(t *testing.T) {
	tests := []struct{ dataset, want string }{
		{"aime", "competition math problems"},
		{"AIME", "competition math problems"},
		{"mmlu-math", "math multiple-choice questions"},
		{"gpqa", "graduate-level science questions"},
		{"lcb", "competitive programming problems"},
		{"hle", "expert-level questions"},
		{"hle-math", "expert-level math questions"},
		{"hle-physics", "expert-level physics questions"},
		{"hle-computer-science-ai", "expert-level computer science and AI questions"},
		{"hle-humanities-social-science", "expert-level humanities and social science questions"},
		{"hle-chemistry", "expert-level chemistry questions"},
		{"hle-engineering", "expert-level engineering questions"},
		{"hle-biology-medicine", "expert-level biology and medicine questions"},
		{"hle-other", "expert-level questions"},
		// Unsolvable variants take their base dataset's label.
		{"mmlu-math-abstain", "math multiple-choice questions"},
		{"gpqa-abstain", "graduate-level science questions"},
		{"GPQA-Abstain", "graduate-level science questions"},
		{"hle-physics-abstain", "expert-level physics questions"},
		{"mmlu-abstain", "math multiple-choice questions"},
		// Unknown datasets, with or without the suffix, and the suffix alone.
		{"unknown", "problems"},
		{"unknown-abstain", "problems"},
		{"-abstain", "problems"},
		{"abstain", "problems"},
		{"", "problems"},
	}
	for _, tt := range tests {
		if got := DomainLabel(tt.dataset); got != tt.want {
			t.Errorf("DomainLabel(%q) = %q, want %q", tt.dataset, got, tt.want)
		}
	}
}

// TestDomainLabelsSayNothingOfAnswerability: no label tells a planner that
// items are unsolvable (SPEC §5 measures whether it notices).
func TestDomainLabelsSayNothingOfAnswerability(t *testing.T) {
	for dataset, label := range domainLabels {
		for _, tell := range []string{"abstain", "unsolv", "unanswer", "no answer", "impossible"} {
			if strings.Contains(strings.ToLower(label), tell) {
				t.Errorf("%s: label %q says %q", dataset, label, tell)
			}
		}
	}
}
