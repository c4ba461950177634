package repair

import (
	"strings"
	"testing"
)

// repairCase is one raw output and what Repair must make of it.
type repairCase struct {
	name   string
	raw    string
	pool   []string // pool30 when nil
	status Status
	plan   string // as planString
	fixes  string // the distinct Fix steps, any order
}

var repairCases = []repairCase{
	{
		name:   "clean compact",
		raw:    `{"plan":[{"id":"p3","tokens":800},{"id":"p1","tokens":1200}]}`,
		status: OK, plan: "p3:800 p1:1200",
	},
	{
		name:   "clean pretty-printed with whitespace around",
		raw:    "\n  {\n    \"plan\": [\n      {\"id\": \"p12\", \"tokens\": 2500},\n      {\"id\": \"p7\", \"tokens\": 900}\n    ]\n  }\n\n",
		status: OK, plan: "p12:2500 p7:900",
	},
	{
		name:   "empty plan object is a valid plan",
		raw:    `{"plan": []}`,
		status: OK, plan: "",
	},
	{
		name:   "bare empty array is a valid plan",
		raw:    "[]",
		status: Repaired, plan: "", fixes: "bare_array",
	},
	{
		name: "DeepSeek-R1: think block with a draft, then the fenced answer",
		raw: "<think>\nOkay, so I have 30 problems and a budget of 40000 tokens. Let me think about which ones look easy.\n" +
			"p3 is a short arithmetic question, maybe 800 tokens. p1 looks hard. A first draft: {\"plan\": [{\"id\": \"p1\", \"tokens\": 9000}]}\n" +
			"Wait, that spends too much on p1. Let me redo it.\n</think>\n\n" +
			"```json\n{\"plan\": [{\"id\": \"p3\", \"tokens\": 800}, {\"id\": \"p5\", \"tokens\": 1500}]}\n```",
		status: Repaired, plan: "p3:800 p5:1500", fixes: "strip_think strip_fence",
	},
	{
		name: "DeepSeek-R1 template: no opening tag, only </think>",
		raw: "The user wants a plan. Problem p2 seems easiest [id: p2]... I'll give p2 600 tokens.\n</think>\n\n" +
			`{"plan": [{"id": "p2", "tokens": 600}]}`,
		status: Repaired, plan: "p2:600", fixes: "strip_think",
	},
	{
		name:   "Qwen3 non-thinking mode: empty think block",
		raw:    "<think>\n\n</think>\n\n{\"plan\": [{\"id\": \"p30\", \"tokens\": 1000}]}",
		status: Repaired, plan: "p30:1000", fixes: "strip_think",
	},
	{
		name:   "thinking tags in another case",
		raw:    "<THINKING>budget is tight</Thinking>{\"plan\":[{\"id\":\"p4\",\"tokens\":10}]}",
		status: Repaired, plan: "p4:10", fixes: "strip_think",
	},
	{
		name:   "unterminated think: the model ran out of tokens while reasoning",
		raw:    "<think>\nLet me allocate. {\"plan\": [{\"id\": \"p1\", \"tokens\": 500}]} hmm, but p2 might be",
		status: Unparseable, fixes: "strip_think",
	},
	{
		name: "GPT style: a sentence, then a json fence",
		raw: "Here is my plan, ordered from most to least promising:\n\n```json\n{\n  \"plan\": [\n    {\"id\": \"p8\", \"tokens\": 1200},\n" +
			"    {\"id\": \"p2\", \"tokens\": 3000}\n  ]\n}\n```",
		status: Repaired, plan: "p8:1200 p2:3000", fixes: "strip_fence strip_prose",
	},
	{
		name:   "fence without a language, and ~~~ fences",
		raw:    "```\n{\"plan\": [{\"id\": \"p1\", \"tokens\": 5}]}\n```\n",
		status: Repaired, plan: "p1:5", fixes: "strip_fence",
	},
	{
		name:   "tilde fence",
		raw:    "~~~json\n{\"plan\": [{\"id\": \"p1\", \"tokens\": 5}]}\n~~~",
		status: Repaired, plan: "p1:5", fixes: "strip_fence",
	},
	{
		name: "Claude style: prose, JSON, then an explanation",
		raw: "I'll prioritize the problems that look tractable within a modest allocation, and skip the ones " +
			"that seem to need long derivations.\n\n{\"plan\": [{\"id\": \"p6\", \"tokens\": 2000}, {\"id\": \"p9\", \"tokens\": 1500}]}\n\n" +
			"This plan focuses on p6 and p9 (3,500 tokens in total), leaving headroom; I skipped p1 [id: p1] since it's {likely} hard.",
		status: Repaired, plan: "p6:2000 p9:1500", fixes: "strip_prose",
	},
	{
		name:   "Llama style: trailing commas and single quotes",
		raw:    "{'plan': [\n  {'id': 'p1', 'tokens': 700,},\n  {'id': 'p2', 'tokens': 900,},\n],}",
		status: Repaired, plan: "p1:700 p2:900", fixes: "trailing_comma single_quotes",
	},
	{
		name:   "Python repr with an escaped quote",
		raw:    `{'plan': [{'id': 'p1', 'tokens': 70, 'reason': 'it\'s short'}]}`,
		status: Repaired, plan: "p1:70", fixes: "single_quotes extra_fields",
	},
	{
		name: "numbers written as strings",
		raw: `{"plan": [{"id": "p1", "tokens": "1,200"}, {"id": "p2", "tokens": "~500"}, {"id": "p3", "tokens": "500 tokens"},` +
			` {"id": "p4", "tokens": "1.5k"}, {"id": "p5", "tokens": "800"}, {"id": "p6", "tokens": "≈ 2K tokens"}, {"id": "p7", "tokens": "about 12_000"}]}`,
		status: Repaired, plan: "p1:1200 p2:500 p3:500 p4:1500 p5:800 p6:2000 p7:12000",
		fixes: "number_from_string float_truncated",
	},
	{
		name:   "floats truncated toward zero",
		raw:    `{"plan": [{"id": "p1", "tokens": 800.9}, {"id": "p2", "tokens": 1e3}, {"id": "p3", "tokens": "2.5"}, {"id": "p4", "tokens": 1200.0}]}`,
		status: Repaired, plan: "p1:800 p2:1000 p3:2 p4:1200",
		fixes: "float_truncated number_from_string",
	},
	{
		name:   "ids as integers for a p1…p30 pool",
		raw:    `{"plan": [{"id": 3, "tokens": 800}, {"id": 17, "tokens": 400}, {"id": 030, "tokens": 10}]}`,
		status: Repaired, plan: "p3:800 p17:400 p30:10",
		fixes: "id_from_number id_canonical number_syntax",
	},
	{
		name: "canonical id forms",
		raw: `{"plan": [{"id": "P3", "tokens": 1}, {"id": "#4", "tokens": 1}, {"id": "[id: p5]", "tokens": 1}, {"id": "id: p6", "tokens": 1},` +
			` {"id": " p7 ", "tokens": 1}, {"id": "8", "tokens": 1}, {"id": "p09", "tokens": 1}]}`,
		status: Repaired, plan: "p3:1 p4:1 p5:1 p6:1 p7:1 p8:1 p9:1", fixes: "id_canonical",
	},
	{
		name:   "duplicates keep the first occurrence, across spellings",
		raw:    `{"plan": [{"id": "p3", "tokens": 800}, {"id": "p1", "tokens": 100}, {"id": "p3", "tokens": 5000}, {"id": "P1", "tokens": 7}]}`,
		status: Repaired, plan: "p3:800 p1:100", fixes: "duplicate_id id_canonical",
	},
	{
		name:   "unknown ids dropped",
		raw:    `{"plan": [{"id": "p31", "tokens": 800}, {"id": "q3", "tokens": 1}, {"id": "p2", "tokens": 5}, {"id": "problem 2", "tokens": 5}, {"id": "", "tokens": 5}]}`,
		status: Repaired, plan: "p2:5", fixes: "unknown_id",
	},
	{
		// SPEC §2 step 3: deduplication comes first, so the first occurrence's
		// 0 is kept, then dropped, and p1 is not attempted.
		name:   "a repeated id keeps its first allocation even when it is 0",
		raw:    `{"plan": [{"id": "p1", "tokens": 0}, {"id": "p1", "tokens": 500}, {"id": "p2", "tokens": 300}]}`,
		status: Repaired, plan: "p2:300", fixes: "zero_dropped duplicate_id",
	},
	{
		name:   "negative and zero allocations dropped",
		raw:    `{"plan": [{"id": "p1", "tokens": -100}, {"id": "p2", "tokens": 0}, {"id": "p3", "tokens": 300}, {"id": "p1", "tokens": 50}]}`,
		status: Repaired, plan: "p3:300", fixes: "negative_to_zero zero_dropped duplicate_id",
	},
	{
		name: "extra fields ignored, one fix",
		raw: `{"plan": [{"id": "p1", "tokens": 500, "reason": "short", "difficulty": "easy"}, {"id": "p2", "tokens": 900, "reason": "medium", "confidence": 0.7}],` +
			` "total_tokens": 1400}`,
		status: Repaired, plan: "p1:500 p2:900", fixes: "extra_fields",
	},
	{
		name:   "bare array of steps",
		raw:    "[\n  {\"id\": \"p1\", \"tokens\": 400},\n  {\"id\": \"p2\", \"tokens\": 600}\n]",
		status: Repaired, plan: "p1:400 p2:600", fixes: "bare_array",
	},
	{
		name:   "truncated output (finish_reason length) is unparseable",
		raw:    "```json\n{\"plan\": [\n  {\"id\": \"p1\", \"tokens\": 500},\n  {\"id\": \"p2\", \"tok",
		status: Unparseable,
	},
	{
		name:   "truncated before the final brace: the complete array is read",
		raw:    `{"plan": [{"id": "p1", "tokens": 500}, {"id": "p2", "tokens": 300}]`,
		status: Repaired, plan: "p1:500 p2:300", fixes: "bare_array strip_prose",
	},
	{
		name:   "a complete draft is used when the final answer is cut off",
		raw:    "Draft: {\"plan\": [{\"id\": \"p1\", \"tokens\": 500}]}\nFinal: {\"plan\": [{\"id\": \"p2\", \"tok",
		status: Repaired, plan: "p1:500", fixes: "strip_prose",
	},
	{name: "garbage", raw: "asdf {{ ]] :: }{ [[,]", status: Unparseable},
	{name: "empty string", raw: "", status: Unparseable},
	{name: "whitespace only", raw: " \n\t ", status: Unparseable},
	{name: "prose only", raw: "I cannot produce a plan for these problems.", status: Unparseable},
	{name: "object without plan", raw: `{"allocations": {"p1": 500, "p2": 300}}`, status: Unparseable},
	{name: "plan is not an array", raw: `{"plan": null}`, status: Unparseable},
	{name: "plan as a map is not a plan", raw: `{"plan": {"p1": 500}}`, status: Unparseable},
	{name: "array of ids is not a plan", raw: `Plan: ["p1", "p2"]`, status: Unparseable},
	{
		name:   "nested plan in a wrapper",
		raw:    `{"response": {"plan": [{"id": "p1", "tokens": 500}]}, "model": "x"}`,
		status: Repaired, plan: "p1:500", fixes: "nested_plan",
	},
	{
		name:   "two wrappers",
		raw:    `{"output": {"answer": {"plan": [{"id": "p1", "tokens": 5}]}}}`,
		status: Repaired, plan: "p1:5", fixes: "nested_plan",
	},
	{
		name:   "three wrappers are too deep",
		raw:    `{"a": {"b": {"c": {"plan": [{"id": "p1", "tokens": 5}]}}}}`,
		status: Unparseable,
	},
	{
		name: "an example in prose, then the real answer: the last wins",
		raw: "The required format is {\"plan\": [{\"id\": \"p1\", \"tokens\": 100}]}. My answer:\n" +
			`{"plan": [{"id": "p4", "tokens": 700}]}`,
		status: Repaired, plan: "p4:700", fixes: "multiple_candidates strip_prose",
	},
	{
		name: "the schema with placeholders is not a candidate",
		raw: "Schema: {\"plan\": [{\"id\": <problem_id>, \"tokens\": <int>}]}\nAnswer:\n" +
			`{"plan": [{"id": "p4", "tokens": 700}]}`,
		status: Repaired, plan: "p4:700", fixes: "strip_prose",
	},
	{
		name:   "a stray [] after the plan does not override it",
		raw:    "{\"plan\": [{\"id\": \"p4\", \"tokens\": 700}]}\nIf nothing fits I would return [].",
		status: Repaired, plan: "p4:700", fixes: "strip_prose",
	},
	{
		name:   "key case and synonyms",
		raw:    `{"Plan": [{"ID": "p1", "Tokens": 5}, {"problem_id": "p2", "allocation": 500}, {"id": "p3", "tokens": 9, "budget": 7}]}`,
		status: Repaired, plan: "p1:5 p2:500 p3:9", fixes: "key_synonym extra_fields",
	},
	{
		name:   "JavaScript style: unquoted keys and comments",
		raw:    "{\n  // easiest first\n  plan: [\n    {id: \"p1\", tokens: 500}, /* then */\n    {id: \"p2\", tokens: 700}\n  ]\n}",
		status: Repaired, plan: "p1:500 p2:700", fixes: "unquoted_keys comments",
	},
	{
		name:   "unquoted thousands separators",
		raw:    "{\"plan\": [{\"id\": \"p1\", \"tokens\": 1,200}, {\"id\": \"p2\", \"tokens\": 12,000,000},\n{\"id\": \"p3\", \"tokens\": 900}]}",
		status: Repaired, plan: "p1:1200 p2:12000000 p3:900", fixes: "thousands_separator",
	},
	{
		name:   "missing commas between steps",
		raw:    "{\"plan\": [\n{\"id\": \"p1\", \"tokens\": 1}\n{\"id\": \"p2\" \"tokens\": 2}\n]}",
		status: Repaired, plan: "p1:1 p2:2", fixes: "missing_comma",
	},
	{
		name: "elements that are not steps are skipped",
		raw: `{"plan": ["p1", {"tokens": 5}, {"id": "p2"}, {"id": null, "tokens": 3}, {"id": "p3", "tokens": "lots"},` +
			` {"id": "p4", "tokens": 400}, {"id": "p5", "tokens": [1]}, {"id": "p2", "tokens": 9}]}`,
		status: Repaired, plan: "p4:400 p2:9", fixes: "invalid_step invalid_tokens",
	},
	{
		name:   "LaTeX in a reason: unknown escape kept",
		raw:    `{"plan": [{"id": "p1", "tokens": 300, "reason": "needs \sqrt{2} and \frac{1}{2}"}]}`,
		status: Repaired, plan: "p1:300", fixes: "invalid_escape extra_fields",
	},
	{
		name:   "repeated key keeps the last value",
		raw:    `{"plan": [{"id": "p1", "tokens": 300, "tokens": 400}]}`,
		status: Repaired, plan: "p1:400", fixes: "duplicate_key",
	},
	{
		name:   "huge allocation saturates",
		raw:    `{"plan": [{"id": "p1", "tokens": 99999999999999999999999}, {"id": "p2", "tokens": 1e400}]}`,
		status: Repaired, plan: "p1:9223372036854775807 p2:9223372036854775807",
		fixes: "number_saturated float_truncated",
	},
	{
		name:   "a plan on one line inside prose",
		raw:    `Final answer: {"plan":[{"id":"p2","tokens":50}]} — good luck!`,
		status: Repaired, plan: "p2:50", fixes: "strip_prose",
	},
	{
		name:   "escaped id is exact",
		raw:    `{"plan":[{"id":"\u0070\u0031","tokens":50}]}`,
		status: OK, plan: "p1:50",
	},
	{
		name:   "deep nesting before the plan",
		raw:    strings.Repeat("[", 100) + ` {"plan":[{"id":"p2","tokens":50}]}`,
		status: Repaired, plan: "p2:50", fixes: "strip_prose",
	},
	{
		name:   "ids as integers for a q001… pool",
		pool:   numbered("q", 30, 3),
		raw:    `{"plan": [{"id": 7, "tokens": 80}, {"id": "q7", "tokens": 1}, {"id": "Q012", "tokens": 3}, {"id": "7", "tokens": 1}]}`,
		status: Repaired, plan: "q007:80 q012:3", fixes: "id_from_number id_canonical duplicate_id",
	},
	{
		name:   "dataset ids with a common prefix",
		pool:   numbered("aime-2024-", 30, 2),
		raw:    `{"plan": [{"id": "AIME-2024-5", "tokens": 80}, {"id": 6, "tokens": 1}, {"id": "aime-2024-07", "tokens": 3}]}`,
		status: Repaired, plan: "aime-2024-05:80 aime-2024-06:1 aime-2024-07:3", fixes: "id_from_number id_canonical",
	},
	{
		name:   "no numeric alias without a common prefix",
		pool:   []string{"alpha", "beta3", "gamma"},
		raw:    `{"plan": [{"id": 3, "tokens": 80}, {"id": "BETA3", "tokens": 1}]}`,
		status: Repaired, plan: "beta3:1", fixes: "id_from_number id_canonical unknown_id",
	},
	{
		name:   "a form shared by two pool ids matches neither",
		pool:   []string{"p1", "p01", "P2", "p2"},
		raw:    `{"plan": [{"id": 1, "tokens": 80}, {"id": "p02", "tokens": 1}, {"id": "p2", "tokens": 5}, {"id": "P2", "tokens": 6}]}`,
		status: Repaired, plan: "p2:5 P2:6", fixes: "id_from_number unknown_id",
	},
	{
		name:   "numeric pool ids",
		pool:   numbered("", 30, 0),
		raw:    `{"plan": [{"id": 3, "tokens": 80}, {"id": "04", "tokens": 1}, {"id": "5", "tokens": 2}]}`,
		status: Repaired, plan: "3:80 4:1 5:2", fixes: "id_from_number id_canonical",
	},
}

func TestRepair(t *testing.T) {
	for _, tc := range repairCases {
		t.Run(tc.name, func(t *testing.T) {
			pool := tc.pool
			if pool == nil {
				pool = pool30
			}
			m := NewMatcher(pool)
			res := m.Repair(tc.raw, nil)
			checkResult(t, m, tc.raw, res)
			if res.Status != tc.status {
				t.Fatalf("status %v (%s), want %v; fixes %v", res.Status, res.Error, tc.status, res.Fixes)
			}
			if res.Status != Unparseable {
				if got := planString(res.Plan); got != tc.plan {
					t.Errorf("plan %q, want %q", got, tc.plan)
				}
			}
			if got, want := fixSet(res.Fixes), sortedFixes(tc.fixes); got != want {
				t.Errorf("fixes {%s}, want {%s}", got, want)
				for _, f := range res.Fixes {
					t.Logf("  %s: %s", f.Step, f.Detail)
				}
			}
			if res.Status != Unparseable {
				again := m.Repair(Render(res.Plan), nil)
				if again.Status != OK || len(again.Fixes) != 0 || planString(again.Plan) != planString(res.Plan) {
					t.Errorf("not idempotent: %v %v %v", again.Status, again.Fixes, again.Plan)
				}
			}
		})
	}
}
