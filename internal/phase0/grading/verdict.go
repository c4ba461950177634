package grading

// Outcome is how a graded answer fared.
type Outcome string

// Outcomes. Only OutcomeCorrect counts as solved.
const (
	// OutcomeCorrect: the answer matches (code: every test passes).
	OutcomeCorrect Outcome = "correct"
	// OutcomeIncorrect: an answer was found and it is wrong.
	OutcomeIncorrect Outcome = "incorrect"
	// OutcomeNoAnswer: no final answer (or no code block) could be found.
	OutcomeNoAnswer Outcome = "no_answer"
	// OutcomeWrongAnswer: code ran but some test's output was wrong.
	OutcomeWrongAnswer Outcome = "wrong_answer"
	// OutcomeTimeout: code exceeded a time limit.
	OutcomeTimeout Outcome = "timeout"
	// OutcomeRuntimeError: code crashed, failed to compile, or hit a
	// resource limit.
	OutcomeRuntimeError Outcome = "runtime_error"
)

// Verdict is the result of grading one response.
type Verdict struct {
	// Outcome is how the answer fared.
	Outcome Outcome
	// Extracted is the final answer as extracted (for code, the program),
	// normalized where the grader normalizes; "" when none was found.
	Extracted string
	// Detail explains the outcome briefly, e.g. "test 3 of 12: expected 5,
	// got 4" or "judge: equivalent".
	Detail string
	// Judge is the grading judge's model call, when one answered (an exact
	// answer matching could not settle); nil otherwise.
	Judge *JudgeCall
}

// Correct reports whether the verdict counts as solved.
func (v Verdict) Correct() bool { return v.Outcome == OutcomeCorrect }
