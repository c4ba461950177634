package grading

import "testing"

func choice4(answer string) Spec {
	return Spec{Kind: KindChoice, Answer: answer, Choices: []string{"12", "14", "16", "18"}}
}

// hleChoice is an HLE multipleChoice item: the options are in the question.
func hleChoice(answer string) Spec {
	return Spec{Kind: KindChoice, Answer: answer, AnswerType: "multipleChoice"}
}

func TestGradeChoice(t *testing.T) {
	cases := []struct {
		name      string
		spec      Spec
		content   string
		outcome   Outcome
		extracted string
	}{
		// answer statements
		{"answer label", choice4("B"), "Answer: B", OutcomeCorrect, "B"},
		{"answer label wrong", choice4("B"), "Answer: C", OutcomeIncorrect, "C"},
		{"the answer is", choice4("B"), "Checking each option, the answer is B.", OutcomeCorrect, "B"},
		{"between two letters", choice4("C"), "Between A and C, the answer is C", OutcomeCorrect, "C"},
		{"bold answer", choice4("D"), "All other options fail.\n\n**Answer: D**", OutcomeCorrect, "D"},
		{"bold label", choice4("D"), "**Answer:** D", OutcomeCorrect, "D"},
		{"parenthesized with value", choice4("B"), "Answer: (B) 14", OutcomeCorrect, "B"},
		{"letter with paren", choice4("B"), "Answer: B) 14", OutcomeCorrect, "B"},
		{"correct answer bold paren", choice4("C"), "The correct answer is **(C)**.", OutcomeCorrect, "C"},
		{"answer is option", choice4("C"), "So the answer is option C.", OutcomeCorrect, "C"},
		{"best option", choice4("A"), "Hence the best option is A", OutcomeCorrect, "A"},
		{"final answer heading", choice4("C"), "### Final Answer\n\n**C**", OutcomeCorrect, "C"},
		{"answer because", choice4("A"), "Answer: A because the area doubles.", OutcomeCorrect, "A"},
		{"last statement wins", choice4("B"), "Answer: A\n\nWait, I misread the question. Recomputing gives 14.\n\nAnswer: B", OutcomeCorrect, "B"},
		{"hle format", hleChoice("C"), "Explanation: Only option C keeps the symmetry.\nAnswer: C\nConfidence: 85%", OutcomeCorrect, "C"},
		{"answer would be", choice4("D"), "The answer would be (D).", OutcomeCorrect, "D"},
		// boxed
		{"boxed", choice4("B"), `The answer is $\boxed{B}$.`, OutcomeCorrect, "B"},
		{"boxed text", choice4("B"), `$\boxed{\text{B}}$`, OutcomeCorrect, "B"},
		{"boxed lower paren", choice4("B"), `$\boxed{(b)}$`, OutcomeCorrect, "B"},
		{"boxed letter and value", choice4("B"), `$\boxed{B) 14}$`, OutcomeCorrect, "B"},
		{"boxed in answer label", choice4("B"), `Final Answer: $\boxed{B}$`, OutcomeCorrect, "B"},
		{"boxed option text", choice4("C"), `The side length is $\boxed{16}$.`, OutcomeCorrect, "C"},
		{"boxed then later statement", choice4("D"), "$\\boxed{A}$\n\nOn reflection, the answer is D.", OutcomeCorrect, "D"},
		{"boxed inline parens", choice4("D"), `The answer is \(\boxed{D}\).`, OutcomeCorrect, "D"},
		// lines and assertions
		{"letter alone", choice4("B"), "Computing the sum gives 14, which is option B.\n\nB", OutcomeCorrect, "B"},
		{"bold letter alone", choice4("B"), "The sum is 14.\n\n**B**", OutcomeCorrect, "B"},
		{"paren letter alone", choice4("B"), "The sum is 14.\n\n(B)", OutcomeCorrect, "B"},
		{"letter paren alone", choice4("B"), "The sum is 14.\n\nB)", OutcomeCorrect, "B"},
		{"is correct", choice4("C"), "(A) and (B) are too small. (C) is correct.", OutcomeCorrect, "C"},
		{"is the correct answer", choice4("C"), "Option C is the correct answer.", OutcomeCorrect, "C"},
		{"last line letter and value", choice4("B"), "The total is 14.\n\n**(B) 14**", OutcomeCorrect, "B"},
		{"statement beats bare line", choice4("B"), "Answer: B\n\nC", OutcomeCorrect, "B"},
		// not answers
		{"article", choice4("A"), "A rectangle has four sides. A square is a rectangle.", OutcomeNoAnswer, ""},
		{"article after answer", choice4("A"), "Answer: A rectangle with sides 3 and 4 has area 12.", OutcomeNoAnswer, ""},
		{"pronoun after answer", choice4("C"), "Answer: I think it is hard to say.", OutcomeNoAnswer, ""},
		{"option list in reasoning", choice4("C"), "The options are\n(A) 12\n(B) 14\n(C) 16\n(D) 18\nI need more information to decide.", OutcomeNoAnswer, ""},
		{"lowercase", choice4("B"), "the answer is b", OutcomeNoAnswer, ""},
		{"answer choices header", choice4("B"), "Answer choices: 12, 14, 16 or 18. None fits.", OutcomeNoAnswer, ""},
		{"nothing", choice4("B"), "I am not sure.", OutcomeNoAnswer, ""},
		{"article then statement", choice4("B"), "A careful count shows 14 cases. The answer is B.", OutcomeCorrect, "B"},
		// letter range
		{"beyond the choices", choice4("B"), "Answer: E", OutcomeNoAnswer, "E"},
		{"beyond the choices, earlier valid", choice4("B"), "Answer: B\n\nActually, Answer: F", OutcomeNoAnswer, "F"},
		{"hle letter beyond ten", hleChoice("K"), "Answer: K", OutcomeCorrect, "K"},
		{"hle wrong letter", hleChoice("K"), "Answer: J", OutcomeIncorrect, "J"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.spec.Validate(); err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, GradeChoice(c.spec, c.content), c.outcome, c.extracted)
		})
	}
}

// TestGradeChoiceShuffled: the reference is the letter shown to the
// solver, after the recorded shuffle, so grading needs nothing else.
func TestGradeChoiceShuffled(t *testing.T) {
	spec := Spec{Kind: KindChoice, Answer: "D", Choices: []string{"3", "1", "4", "2"},
		Shuffle: &Shuffle{Seed: 7, Permutation: []int{2, 0, 3, 1}}}
	if err := spec.Validate(); err != nil {
		t.Fatal(err)
	}
	checkVerdict(t, GradeChoice(spec, "The value is 2, which is option D.\n\n**Answer: D**"), OutcomeCorrect, "D")
	checkVerdict(t, GradeChoice(spec, `So it is $\boxed{2}$.`), OutcomeCorrect, "D")
	checkVerdict(t, GradeChoice(spec, "**Answer: B**"), OutcomeIncorrect, "B")
}
