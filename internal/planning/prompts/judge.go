package prompts

const judgeExactFile = "templates/judge/exact.txt"

// Judge returns the prompt of the LLM judge that settles exact-answer
// items (HLE exactMatch) which normalized matching could not: it asks
// whether a response's final answer matches the reference, for a JSON
// verdict {"extracted_final_answer", "reasoning", "correct": "yes"|"no"}
// in the style of the HLE judge. Its placeholders are {question},
// {response} and {correct_answer}.
func Judge() (Template, error) {
	text, err := files.ReadFile(judgeExactFile)
	if err != nil {
		return Template{}, err
	}
	return newTemplate("judge/exact", string(text)), nil
}

// JudgePrompt renders the judge template for a question, its reference
// answer and the response to judge. Values are inserted verbatim in one
// pass, so a placeholder inside a value is left as it is.
func (t Template) JudgePrompt(question, reference, response string) string {
	return t.render(map[string]string{
		"question":       question,
		"correct_answer": reference,
		"response":       response,
	})
}
