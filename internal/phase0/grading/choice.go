package grading

import (
	"fmt"
	"regexp"
	"strings"
)

// GradeChoice grades a multiple-choice answer letter against spec.Answer.
//
// The letter is looked for in two tiers; the last match of the first tier
// that has one wins:
//
//  1. Statements: the last \boxed{…} holding a letter ("B", "(B)",
//     "\text{B}", "B) 42", or, when spec.Choices is set, the exact text
//     of one option), and "answer" statements: "Answer: B", "**Answer:
//     D**", "Answer: (B) 42", "The answer is B.", "The correct answer is
//     **(C)**", "Final Answer: $\boxed{B}$", "the best option is C",
//     "### Final Answer\n**C**".
//  2. Lines and assertions, only when tier 1 has nothing, among the last
//     200 non-empty lines: a line that is just the letter ("B", "**B**",
//     "(B)", "B.", "B)"); "(C) is correct", "C is the correct answer";
//     and a last line that starts with the letter and a delimiter
//     ("**(B) 42**", "B) 42").
//
// So "Answer: B" followed later by a line "C" is B. "option C" and
// "choice C" count only after "correct", "best" or "right": elsewhere they
// are mentions ("Option C fails because…"). As for math, at most the last
// 64 occurrences of each keyword (answer, option, choice) are examined.
//
// The letter must be a capital (a lowercase letter counts only inside
// \boxed{}), standing alone: followed by white space, punctuation, a
// closing bracket or markup, or the end. A bare capital in prose never
// counts — an option list "(A) 12\n(B) 14" in the reasoning is not an
// answer — and after an answer statement "A" and "I" followed by a
// lowercase word ("Answer: A rectangle has…", "Answer: I think…") are
// taken as the article and the pronoun, unless the word is one of
// because, since, as, for, given, due, which.
//
// Valid letters are A up to the number of spec.Choices; when Choices is
// empty (HLE multipleChoice, the options are in the question) any capital
// A–Z is valid, since HLE items have more than ten options at times. A
// final letter outside the valid range is no_answer: it is the model's
// last word, so an earlier letter is not used instead.
func GradeChoice(spec Spec, content string) Verdict {
	letter, from, ok := extractChoice(spec, content)
	if !ok {
		return Verdict{Outcome: OutcomeNoAnswer, Detail: "no answer letter found"}
	}
	if n := len(spec.Choices); n > 0 && int(letter-'A') >= n {
		return Verdict{Outcome: OutcomeNoAnswer, Extracted: string(letter),
			Detail: fmt.Sprintf("letter %c is beyond the %d choices, from %s", letter, n, from)}
	}
	v := Verdict{Outcome: OutcomeIncorrect, Extracted: string(letter), Detail: "from " + from}
	if string(letter) == spec.Answer {
		v.Outcome = OutcomeCorrect
	}
	return v
}

var (
	// choiceAfterKeyword is an answer statement from its keyword on:
	// the keyword, a copula or colon, "option", wrappers, the letter, its
	// closing wrappers and a boundary.
	choiceAfterKeyword = regexp.MustCompile(`^(?i:answer|option|choice)` +
		`[\s*_]*(?:(?i:is|would\s+be|should\s+be|must\s+be|will\s+be|:|=)[\s*_:]*)?` +
		`(?:(?i:option|choice|letter)\b\s*)?` +
		`[\s*_(\[{$]*(?:\\(?:boxed|textbf|text|mathbf|mathrm)\s*\{[\s(]*)*` +
		`([A-Z])([)\]}*_$]*)(?:[\s.,;:!?'"]|$)`)
	// choiceLine is a line that is only a letter, with markup.
	choiceLine = regexp.MustCompile(`^[ \t>#*_-]*[(\[]?([A-Z])[)\].:]?[ \t*_]*$`)
	// choiceCorrect asserts that a letter is correct.
	choiceCorrect = regexp.MustCompile(`(?:^|[^A-Za-z0-9\\])[(\[]?([A-Z])[)\]]?[*_]*\s+is\s+(?:the\s+)?(?:correct|right|best)\b`)
	// choiceLead is a line that starts with a letter and a delimiter.
	choiceLead = regexp.MustCompile(`^[ \t>#*_-]*[(\[]?([A-Z])(?:[)\]:]|\.\s)`)
	// boxedLetter is a \boxed{} content that names a letter.
	boxedLetter = regexp.MustCompile(`^[(\[]?([A-Za-z])(?:[)\].:]|\s|$)`)
)

// articleConnectors may follow the letters A and I in an answer statement.
var articleConnectors = map[string]bool{
	"because": true, "since": true, "as": true, "for": true, "given": true, "due": true, "which": true,
}

// Bounds of the choice search, which keep it linear on degenerate
// responses; the answer is near the end.
const (
	// statementWindow bounds an answer statement's length from its keyword.
	statementWindow = 256
	// maxChoiceLines is how many non-empty lines, from the end, tier 2
	// looks at.
	maxChoiceLines = 200
	// correctWindow bounds the end of a line searched for "X is correct".
	correctWindow = 2048
)

// extractChoice returns the answer letter of content and where it came
// from.
func extractChoice(spec Spec, content string) (byte, string, bool) {
	letter, pos, from := byte(0), -1, ""
	if v, k, st := lastBoxed(content); st == extractFound {
		if l, ok := boxedChoice(spec, v); ok {
			letter, pos, from = l, k, `\boxed{}`
		}
	}
	if l, k, ok := lastChoiceStatement(content); ok && k > pos {
		letter, pos, from = l, k, "answer statement"
	}
	if pos >= 0 {
		return letter, from, true
	}
	return lastChoiceLine(content)
}

// choiceKeywords are the words an answer statement is anchored on.
var choiceKeywords = [...]string{"answer", "option", "choice"}

// lastChoiceStatement finds the last answer statement with a letter
// (tier 1 of GradeChoice) and the index of its keyword: the occurrences
// of the keywords (lower-case, capitalized or upper-case) are tried from
// the end, at most maxCandidates of each.
func lastChoiceStatement(s string) (byte, int, bool) {
	// next[i] is the last untried occurrence of stream i, or -1: streams
	// 2j and 2j+1 are keyword j's lower-case and upper-case tails ("nswer",
	// "NSWER"), and only the stream just tried is searched again.
	var next [2 * len(choiceKeywords)]int
	tail := func(i int) string {
		t := choiceKeywords[i/2][1:]
		if i%2 == 1 {
			t = strings.ToUpper(t)
		}
		return t
	}
	for i := range next {
		next[i] = lastIndex(s, tail(i))
	}
	for tries := 0; tries < maxCandidates*len(choiceKeywords); tries++ {
		t, i := -1, -1
		for j, n := range next {
			if n > t {
				t, i = n, j
			}
		}
		if t < 1 {
			return 0, -1, false
		}
		next[i] = lastIndex(s[:t], tail(i))
		k, w := t-1, i/2
		kw := choiceKeywords[w]
		if c := s[k] | 0x20; c != kw[0] || k > 0 && isWordByte(s[k-1]) || k+len(kw) < len(s) && isWordByte(s[k+len(kw)]) {
			continue
		}
		if w > 0 && !qualified(s[:k]) {
			continue // "option C" alone is a mention, not a statement
		}
		win := s[k:min(len(s), k+statementWindow)]
		m := choiceAfterKeyword.FindStringSubmatchIndex(win)
		if m == nil {
			continue
		}
		if after := k + m[5]; m[1] == len(win) && after < len(s) && !strings.ContainsRune(" \t\n\r.,;:!?'\"", rune(s[after])) {
			continue // the window cut the statement short
		}
		l := win[m[2]]
		if (l == 'A' || l == 'I') && m[5] == m[4] && isArticle(s[k+m[3]:]) {
			continue
		}
		return l, k, true
	}
	return 0, -1, false
}

// qualified reports whether before, the text before "option" or
// "choice", ends with "correct", "best" or "right" (any case) and white
// space.
func qualified(before string) bool {
	t := strings.TrimRight(before, " \t\n\r")
	if len(t) == len(before) {
		return false
	}
	for _, q := range [...]string{"correct", "best", "right"} {
		if n := len(t) - len(q); n >= 0 && strings.EqualFold(t[n:], q) && (n == 0 || !isWordByte(t[n-1])) {
			return true
		}
	}
	return false
}

// lastChoiceLine is tier 2 of GradeChoice: the last of the last
// maxChoiceLines non-empty lines that is a letter alone or says a letter
// is correct; the last line may also start with the letter.
func lastChoiceLine(s string) (byte, string, bool) {
	end := len(s)
	for n := 0; n < maxChoiceLines && end > 0; {
		start := strings.LastIndexByte(s[:end], '\n') + 1
		line := strings.TrimRight(s[start:end], " \t\r")
		end = max(start-1, 0)
		if line == "" {
			continue
		}
		if len(line) <= 64 {
			if m := choiceLine.FindStringSubmatchIndex(line); m != nil {
				return line[m[2]], "a line with the letter alone", true
			}
		}
		if strings.Contains(line, " is ") {
			if m := lastSubmatch(choiceCorrect, line[max(0, len(line)-correctWindow):]); m != nil {
				return line[max(0, len(line)-correctWindow)+m[2]], "a statement that it is correct", true
			}
		}
		if n == 0 {
			if m := choiceLead.FindStringSubmatchIndex(line); m != nil {
				return line[m[2]], "the last line", true
			}
		}
		n++
	}
	return 0, "", false
}

// isArticle reports whether rest, the text after a capital A or I, makes
// it a word: a space, then a lowercase word that is not a connector.
func isArticle(rest string) bool {
	if rest == "" || rest[0] != ' ' {
		return false
	}
	rest = rest[1:]
	e := 0
	for e < len(rest) && 'a' <= rest[e] && rest[e] <= 'z' {
		e++
	}
	return e > 0 && !articleConnectors[rest[:e]]
}

// boxedChoice reads a letter from a \boxed{} content: a letter alone or
// with its option text, or the exact text of one of spec.Choices.
func boxedChoice(spec Spec, v string) (byte, bool) {
	c := strings.TrimSpace(cleanMath(v))
	if m := boxedLetter.FindStringSubmatch(c); m != nil {
		l := m[1][0]
		if 'a' <= l && l <= 'z' {
			l -= 'a' - 'A'
		}
		return l, true
	}
	if len(spec.Choices) > 0 {
		got := compactMath(c)
		for i, ch := range spec.Choices {
			if compactMath(cleanMath(ch)) == got {
				return byte('A' + i), true
			}
		}
	}
	return 0, false
}

// lastSubmatch returns the submatch indices of re's last match in s.
func lastSubmatch(re *regexp.Regexp, s string) []int {
	ms := re.FindAllStringSubmatchIndex(s, -1)
	if len(ms) == 0 {
		return nil
	}
	return ms[len(ms)-1]
}
