package prompts

import (
	"fmt"
	"strings"
)

// solverFiles maps a grading kind to its standard solver prompt.
var solverFiles = map[string]string{
	"math":   "templates/solver/math.txt",
	"choice": "templates/solver/choice.txt",
	"exact":  "templates/solver/exact.txt",
	"code":   "templates/solver/code.txt",
}

// Solver returns the standard solver prompt of a domain, named by its
// grading kind (math, choice, exact or code). Its one placeholder is
// {problem}.
func Solver(kind string) (Template, error) {
	path, ok := solverFiles[kind]
	if !ok {
		return Template{}, fmt.Errorf("no solver prompt for grading kind %q (want math, choice, exact or code)", kind)
	}
	text, err := files.ReadFile(path)
	if err != nil {
		return Template{}, err
	}
	return newTemplate("solver/"+kind, strings.TrimRight(string(text), "\n")), nil
}

// SolverPrompt renders a solver template for one problem's text. A banner,
// when not empty, is prepended with a blank line between (the budget-aware
// re-solve, SPEC §5).
func (t Template) SolverPrompt(problem, banner string) string {
	p := strings.ReplaceAll(t.text, "{problem}", problem)
	if banner == "" {
		return p
	}
	return strings.TrimRight(banner, "\n") + "\n\n" + p
}
