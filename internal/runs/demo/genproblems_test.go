package demo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/triage-eval/triage/internal/store/problems"
)

const (
	problemsPerDataset    = 60
	unsolvablePerDataset  = 6
	maxDifficultyPerMille = 1000
)

// synthProblem is a generated problem with its hidden properties, the
// same for every invented solver: its difficulty in [0, 1000), which drives
// cost and accuracy; its hardness in [0, 1000), which decides, for a given
// difficulty, which problems a solver gets right and which it does not (a
// solver is right when hardness < its P(correct) in per mille), and which
// cost does not show; and whether it is a trick question that every solver
// gets wrong. What one solver's record says about a problem therefore
// predicts another's, except for a solver's own slips (gentruth_test.go).
type synthProblem struct {
	problems.Problem
	difficulty int
	hardness   int
	trick      bool
	core       string // the statement without its fillers
}

// trickPerMille is the share of problems that are trick questions.
const trickPerMille = 100

// fillers pad texts so that harder problems are longer.
var fillers = []string{
	"All quantities are integers.",
	"Intermediate values may exceed 32 bits.",
	"State the final answer on its own line.",
	"The input is guaranteed to be well formed.",
	"Consider the edge cases carefully.",
	"This statement was generated for the TRIAGE demo and has no external source.",
	"No outside reference is needed.",
}

// genProblems returns the problems of every dataset, then the unsolvable
// twins, in file order.
func genProblems() []synthProblem {
	var out []synthProblem
	for _, ds := range Datasets() {
		unsolvable := pickUnsolvable(ds)
		for i := 1; i <= problemsPerDataset; i++ {
			out = append(out, genProblem(ds, i, unsolvable[i]))
		}
	}
	return append(out, genTwins(out)...)
}

// genTwins makes the InjectionSource dataset the AbstentionBench way: of
// each solvable InjectionBase problem whose statement ends with a question
// sentence after ". ", only that last sentence is kept, so its givens are
// gone and no answer can be determined. The twin of id is id + "-abstain".
func genTwins(ps []synthProblem) []synthProblem {
	var out []synthProblem
	for _, p := range ps {
		if p.Dataset != InjectionBase || p.Unsolvable {
			continue
		}
		i := strings.LastIndex(p.core, ". ")
		if i < 0 {
			continue // one sentence: nothing to remove
		}
		g, err := json.Marshal(mathGrading{})
		if err != nil {
			panic(err)
		}
		out = append(out, synthProblem{
			Problem: problems.Problem{
				ID: p.ID + "-abstain", Dataset: InjectionSource, Text: "[synthetic] " + p.core[i+2:],
				Grading: g, Unsolvable: true,
			},
			difficulty: p.difficulty,
			hardness:   p.hardness,
			core:       p.core[i+2:],
		})
	}
	return out
}

// pickUnsolvable chooses unsolvablePerDataset problem numbers by a partial
// Fisher–Yates shuffle.
func pickUnsolvable(ds string) map[int]bool {
	r := newRNG("unsolvable", ds)
	nums := make([]int, problemsPerDataset)
	for i := range nums {
		nums[i] = i + 1
	}
	picked := map[int]bool{}
	for i := range unsolvablePerDataset {
		j := i + r.intn(len(nums)-i)
		nums[i], nums[j] = nums[j], nums[i]
		picked[nums[i]] = true
	}
	return picked
}

func genProblem(ds string, n int, unsolvable bool) synthProblem {
	id := fmt.Sprintf("%s-%03d", ds, n)
	r := newRNG("problem", ds, id)
	d := (r.intn(maxDifficultyPerMille) + r.intn(maxDifficultyPerMille)) / 2 // triangular
	var core string
	var grading any
	if strings.HasSuffix(ds, "-code") {
		core, grading = codeStatement(r, unsolvable)
	} else {
		core, grading = mathStatement(r, unsolvable)
	}
	// The text never names the id: planners must not see it (SPEC §1).
	parts := []string{"[synthetic] " + core}
	pad := slices.Clone(fillers)
	for i := range min(d/200+r.intn(3), len(pad)) { // distinct fillers, more when harder
		j := i + r.intn(len(pad)-i)
		pad[i], pad[j] = pad[j], pad[i]
		parts = append(parts, pad[i])
	}
	g, err := json.Marshal(grading)
	if err != nil {
		panic(err)
	}
	// Drawn apart from the text so that the texts stay as they were.
	hidden := newRNG("hidden", ds, id)
	return synthProblem{
		Problem: problems.Problem{
			ID: id, Dataset: ds, Text: strings.Join(parts, " "),
			Grading: g, Unsolvable: unsolvable,
		},
		difficulty: d,
		hardness:   hidden.intn(1000),
		trick:      hidden.intn(1000) < trickPerMille,
		core:       core,
	}
}

type mathGrading struct {
	Answer *string `json:"answer"`
}

func mathStatement(r *rng, unsolvable bool) (string, any) {
	if unsolvable { // contradictory bounds: no such n exists
		hi := r.between(10, 40)
		lo := hi + r.between(5, 30)
		return fmt.Sprintf("Find the even positive integer n such that n > %d and n < %d.", lo, hi), mathGrading{}
	}
	var text string
	var ans int
	switch r.intn(3) {
	case 0:
		a, k, m := r.between(2, 40), r.between(3, 12), r.between(11, 997)
		b := r.between(1, 99)
		text, ans = fmt.Sprintf("Let a = %d and b = %d. Compute (a^%d + b) mod %d.", a, b, k, m), (powMod(a, k, m)+b)%m
	case 1:
		n, p, q := r.between(100, 5000), r.between(2, 13), r.between(2, 13)
		text = fmt.Sprintf("Count the integers n with 1 ≤ n ≤ %d that are divisible by %d or by %d.", n, p, q)
		ans = n/p + n/q - n/lcm(p, q)
	default:
		s, d, k := r.between(1, 50), r.between(1, 20), r.between(5, 200)
		text = fmt.Sprintf("An arithmetic progression starts at %d with common difference %d. Find the sum of its first %d terms.", s, d, k)
		ans = k * (2*s + (k-1)*d) / 2
	}
	a := fmt.Sprint(ans)
	return text, mathGrading{Answer: &a}
}

type codeGrading struct {
	Tests int `json:"tests"`
}

func codeStatement(r *rng, unsolvable bool) (string, any) {
	if unsolvable { // below the log2(n!) comparison lower bound
		n := r.between(16, 64)
		return fmt.Sprintf("Write a function that sorts any list of %d distinct integers using at most %d comparisons in the worst case.", n, n-1), codeGrading{}
	}
	tests := r.between(5, 40)
	switch r.intn(3) {
	case 0:
		return fmt.Sprintf("Write a function that returns the k-th Fibonacci number modulo %d, for k up to %d.", r.between(1000, 1_000_000), r.between(1000, 1_000_000_000)), codeGrading{tests}
	case 1:
		return fmt.Sprintf("Write a function that, given a list of up to %d integers, returns the length of its longest strictly increasing contiguous run.", r.between(10, 200000)), codeGrading{tests}
	default:
		return fmt.Sprintf("Write a function that counts the distinct substrings of length %d in a string of up to %d lowercase letters.", r.between(2, 12), r.between(100, 100000)), codeGrading{tests}
	}
}

func powMod(a, k, m int) int {
	out := 1 % m
	for range k {
		out = out * a % m
	}
	return out
}

func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}
