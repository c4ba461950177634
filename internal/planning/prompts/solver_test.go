package prompts

import (
	"strings"
	"testing"
)

func TestSolverPrompts(t *testing.T) {
	banner, err := BudgetAwareBanner()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"math", "choice", "exact", "code"} {
		t.Run(kind, func(t *testing.T) {
			tmpl, err := Solver(kind)
			if err != nil {
				t.Fatal(err)
			}
			if tmpl.Name != "solver/"+kind || len(tmpl.SHA256) != 64 {
				t.Errorf("template identity %q %q", tmpl.Name, tmpl.SHA256)
			}
			problem := "What is {problem} doing in 1+1?"
			plain := tmpl.SolverPrompt(problem, "")
			if strings.Count(plain, problem) != 1 || strings.Contains(strings.ReplaceAll(plain, problem, ""), "{problem}") {
				t.Errorf("problem not rendered exactly once:\n%s", plain)
			}
			checkGolden(t, "solver_"+kind+".golden", plain)
			aware := tmpl.SolverPrompt(problem, banner.Banner(1500))
			if want := banner.Banner(1500) + "\n" + plain; aware != want {
				t.Errorf("banner not prepended with one blank line:\n%q\nwant\n%q", aware, want)
			}
		})
	}
	if _, err := Solver("essay"); err == nil {
		t.Error("unknown kind accepted")
	}
}
