package grading

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/planning/prompts"
)

// LLMJudge is the Judge that asks a language model, through the gateway,
// whether a response's final answer matches the reference, in the style
// of the Humanity's Last Exam judge: one user message rendered from the
// prompts.Judge template, and a strict JSON-schema response format for the
// verdict
//
//	{"extracted_final_answer": string, "reasoning": string, "correct": "yes" | "no"}
//
// The verdict is parsed strictly: exactly those three string fields, no
// other field, nothing after the object, "correct" exactly "yes" or "no".
// Anything else — or a verdict cut at the token limit — is an error, never
// a "no". Thinking the judge leaks into its content (<think>…</think>) is
// removed first. Retries, the cache and concurrency are the client's.
type LLMJudge struct {
	client *llm.Client
	prompt prompts.Template
}

// JudgeSchemaName names the verdict's response format.
const JudgeSchemaName = "exact_answer_verdict"

// judgeSchema is the JSON schema of the verdict. The reasoning comes
// before the decision so a model reasons first.
var judgeSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"extracted_final_answer":{"type":"string"},` +
	`"reasoning":{"type":"string"},` +
	`"correct":{"type":"string","enum":["yes","no"]}},` +
	`"required":["extracted_final_answer","reasoning","correct"],"additionalProperties":false}`)

// NewLLMJudge returns a judge calling c. Grading must be reproducible, so
// c's endpoint must run at temperature 0 (the gateway always sends it), or
// omit the temperature for models that accept only their default.
func NewLLMJudge(c *llm.Client) (*LLMJudge, error) {
	if c == nil {
		return nil, errors.New("judge: no LLM client")
	}
	if ep := c.Endpoint(); ep.Temperature != 0 {
		return nil, fmt.Errorf("judge: endpoint %q has temperature %g; the judge must run at temperature 0", ep.Name, ep.Temperature)
	}
	tmpl, err := prompts.Judge()
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	return &LLMJudge{client: c, prompt: tmpl}, nil
}

// Prompt returns the judge's template, whose name and hash a run records.
func (j *LLMJudge) Prompt() prompts.Template { return j.prompt }

// Equivalent asks the model whether response's final answer matches
// reference for question. why is "extracted <answer>: <reasoning>", the
// reasoning cut to 500 characters.
// The Judgment's Call is the model call whenever one answered, even
// without a usable verdict (the provider bills it all the same).
func (j *LLMJudge) Equivalent(ctx context.Context, question, reference, response string) (Judgment, error) {
	resp, err := j.client.Complete(ctx, JudgeRequest(j.prompt, question, reference, response))
	if err != nil {
		return Judgment{}, err
	}
	call := &JudgeCall{Endpoint: j.client.Endpoint().Name, Cached: resp.CacheHit}
	if !resp.CacheHit {
		call.PromptTokens, call.OutputTokens = int64(resp.PromptTokens), int64(resp.Cost)
	}
	if resp.Truncated {
		return Judgment{Call: call}, fmt.Errorf("judge verdict cut at the output token limit (finish_reason %q)", resp.FinishReason)
	}
	v, err := ParseJudgeVerdict(resp.Content)
	if err != nil {
		return Judgment{Call: call}, err
	}
	return Judgment{Same: v.Correct == "yes", Why: fmt.Sprintf("extracted %q: %s", v.ExtractedFinalAnswer, truncateRunes(v.Reasoning, 500)), Call: call}, nil
}

// JudgeRequest is the model call a judge with template tmpl makes on
// response: what LLMJudge sends, and what a spend cap prices before it
// (SPEC §9).
func JudgeRequest(tmpl prompts.Template, question, reference, response string) llm.Request {
	return llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: tmpl.JudgePrompt(question, reference, response)}},
		ResponseFormat: &llm.JSONSchema{
			Name:        JudgeSchemaName,
			Description: "Whether a response's final answer matches the reference answer.",
			Schema:      judgeSchema,
			Strict:      true,
		},
	}
}

// JudgeVerdict is the judge model's structured verdict.
type JudgeVerdict struct {
	// ExtractedFinalAnswer is the final answer the judge read in the
	// response ("None" when there is none).
	ExtractedFinalAnswer string `json:"extracted_final_answer"`
	// Reasoning explains the decision.
	Reasoning string `json:"reasoning"`
	// Correct is "yes" or "no".
	Correct string `json:"correct"`
}

// ParseJudgeVerdict parses a judge's content strictly (see LLMJudge).
func ParseJudgeVerdict(content string) (JudgeVerdict, error) {
	body := strings.TrimSpace(StripThinking(content))
	var raw struct {
		Extracted *string `json:"extracted_final_answer"`
		Reasoning *string `json:"reasoning"`
		Correct   *string `json:"correct"`
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return JudgeVerdict{}, fmt.Errorf("malformed judge verdict: %v (content starts %q)", err, truncateRunes(body, 200))
	}
	if _, err := dec.Token(); err != io.EOF {
		return JudgeVerdict{}, fmt.Errorf("malformed judge verdict: data after the JSON object (content starts %q)", truncateRunes(body, 200))
	}
	var missing []string
	for _, f := range [...]struct {
		name string
		v    *string
	}{{"extracted_final_answer", raw.Extracted}, {"reasoning", raw.Reasoning}, {"correct", raw.Correct}} {
		if f.v == nil {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return JudgeVerdict{}, fmt.Errorf("malformed judge verdict: missing %s", strings.Join(missing, ", "))
	}
	if c := *raw.Correct; c != "yes" && c != "no" {
		return JudgeVerdict{}, fmt.Errorf(`malformed judge verdict: "correct" is %q, want "yes" or "no"`, c)
	}
	return JudgeVerdict{ExtractedFinalAnswer: *raw.Extracted, Reasoning: *raw.Reasoning, Correct: *raw.Correct}, nil
}

// truncateRunes cuts s to at most n runes, marking the cut with "…".
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i = range s {
		if k == n {
			break
		}
		k++
	}
	return s[:i] + "…"
}
