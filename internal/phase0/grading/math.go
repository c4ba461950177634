package grading

import (
	"fmt"
	"strings"
)

// This file holds the math grader. The extraction helpers the text graders
// share (the last \boxed{…}, the last "answer" statement, the last number)
// are in math_extract.go, the answer normalization in math_normalize.go and
// StripThinking in thinking.go.

// GradeMath grades a mathematical final answer against spec.Answer.
//
// Extraction, in order of precedence (the first that finds something
// decides):
//
//  1. The last \boxed{…}, \boxed X or \fbox{…} anywhere in content
//     (braces nest; \{ and \} are escaped braces). Empty boxes are
//     skipped; when every box is empty the answer is no_answer, not the
//     last number.
//  2. The last "answer" statement: "Answer: 42", "**Answer:** 42",
//     "Final Answer: 42", "the final answer is $42$.", "The answer is 42",
//     "The answer should be 42", a "**Final Answer**" heading or a label
//     ending its line followed by the answer on the next non-empty line.
//     The value is its leading $…$ or \(…\) span (on its line) or $$…$$
//     or \[…\] span (which may span lines) when it starts with one, else
//     the text up to the end of its line or of its first sentence.
//  3. The last number in content (a sign, digits with thousands commas,
//     a decimal part), e.g. "… so there are 204 ways".
//
// So "Answer: 42\n\nI hope this helps 1" extracts 42, and a \boxed{} wins
// over any later "Answer:" line. The searches are bounded so that a
// degenerate response (a model repeating itself up to the token limit) is
// graded in linear time: at most the last 64 boxes and the last 64
// occurrences of "answer" are examined, and an extracted answer longer
// than 1024 bytes is incorrect as it stands.
//
// Normalization (reference and extracted alike): $ and \( \) \[ \]
// delimiters, \left/\right, spacing commands (\! \, \; \: ~), \displaystyle,
// degrees (^\circ, °), percent signs (\%, %) and dollar signs are removed;
// \dfrac and \tfrac become \frac, \frac12 becomes \frac{1}{2}; \text{…},
// \textbf{…}, \mathrm{…} and similar wrappers are unwrapped, except that a
// word-only one after a value is a unit and is dropped ("204 \text{
// minutes}" is 204); "x = 5" becomes 5; a trailing period and surrounding
// "*" are removed; {,} is a comma; a string that is one number with
// thousands commas (1,000 or 1{,}000) loses its commas, but "1, 2" stays
// a list; white space is removed; an integer loses its leading zeros.
//
// With spec.Integer (AIME) both sides are compared as integers (as digit
// strings, so any size works): the extracted answer must be an integer
// after normalization — 033, 1{,}000, 204., 204.0, 2^{10} and prose with a
// single integer and words ("There are 204 ways", "204 minutes") qualify;
// anything else (\frac{1}{2}, 3.5, \sqrt{2}, "5 or 6") is incorrect. If the
// reference itself is not an integer, the normalized strings are compared.
// Without Integer the normalized strings are compared, and two plain
// numbers or fractions (0.5, 1/2, \frac{1}{2}, -\frac{3}{4}) are also equal
// when they are the same rational number.
func GradeMath(spec Spec, content string) Verdict {
	raw, from, status := extractMath(content)
	switch status {
	case extractNone:
		return Verdict{Outcome: OutcomeNoAnswer, Detail: "no final answer found"}
	case extractEmpty:
		return Verdict{Outcome: OutcomeNoAnswer, Detail: "empty " + from}
	}
	if len(raw) > maxMathAnswer {
		return Verdict{Outcome: OutcomeIncorrect, Extracted: truncateRunes(raw, 64),
			Detail: fmt.Sprintf("answer of %d bytes (over %d), from %s", len(raw), maxMathAnswer, from)}
	}
	got := cleanMath(raw)
	gotCompact := compactMath(got)
	if gotCompact == "" {
		return Verdict{Outcome: OutcomeNoAnswer, Detail: "empty answer in " + from}
	}
	ref := cleanMath(spec.Answer)
	refCompact := compactMath(ref)
	if spec.Integer {
		if want, ok := mathInteger(ref, refCompact); ok {
			n, ok := mathInteger(got, gotCompact)
			if !ok {
				return Verdict{Outcome: OutcomeIncorrect, Extracted: gotCompact, Detail: "not an integer, from " + from}
			}
			return mathVerdict(n == want, n, from)
		}
	}
	return mathVerdict(gotCompact == refCompact || sameRational(gotCompact, refCompact), gotCompact, from)
}

func mathVerdict(correct bool, extracted, from string) Verdict {
	v := Verdict{Outcome: OutcomeIncorrect, Extracted: extracted, Detail: "from " + from}
	if correct {
		v.Outcome = OutcomeCorrect
	}
	return v
}

// maxMathAnswer bounds the length of a math answer; a longer one (a box
// or statement that swallowed a whole response) is incorrect as it
// stands.
const maxMathAnswer = 1024

type extractStatus int

const (
	extractNone extractStatus = iota
	extractFound
	extractEmpty
)

// extractMath returns the raw final answer and where it came from.
func extractMath(content string) (string, string, extractStatus) {
	if v, _, st := lastBoxed(content); st != extractNone {
		return v, `\boxed{}`, st
	}
	if v, _, ok := lastAnswerStatement(content, false); ok {
		v = mathStatementValue(v)
		if strings.TrimSpace(v) == "" {
			return "", "answer statement", extractEmpty
		}
		return v, "answer statement", extractFound
	}
	if v, ok := lastNumber(content); ok {
		return v, "last number", extractFound
	}
	return "", "", extractNone
}
