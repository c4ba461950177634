// Package grading decides whether a solver's final answer is correct.
//
// A problem's grading data (problems.Problem.Grading) is a Spec, a JSON
// object whose "kind" selects the grader:
//
//	math    final answer compared with a reference (AIME: as integers)
//	choice  multiple choice: the answer letter
//	exact   exact answer after normalization, optionally settled by an LLM judge
//	code    a program run against test cases in a sandbox
//
// Graders read only the final content of a response: a reasoning model's
// thinking is never graded. A Verdict is the outcome; an error from Grade
// means the grading itself failed (the sandbox could not start, the judge
// could not be reached), never that the answer was wrong.
package grading
