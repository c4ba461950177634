package gtfile

import (
	"strings"
	"testing"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// TestCostRuleKey: cost_rule reads every rule name (absent is unknown),
// refuses any other value by key, and is always written.
func TestCostRuleKey(t *testing.T) {
	const base = `{"model":"m","mode":"extended","dataset":"d","problem_id":"p","cost":7953,"correct":true,"measured_at":"2026-01-02T03:04:05Z"`
	tests := []struct {
		extra   string
		want    triagev1.CostRule
		written string
		err     string
	}{
		{``, triagev1.CostRule_COST_RULE_UNSPECIFIED, `"cost_rule":"unknown"`, ""},
		{`,"cost_rule":"unknown"`, triagev1.CostRule_COST_RULE_UNSPECIFIED, `"cost_rule":"unknown"`, ""},
		{`,"cost_rule":"completion"`, triagev1.CostRule_COST_RULE_COMPLETION, `"cost_rule":"completion"`, ""},
		{`,"cost_rule":"total_minus_prompt"`, triagev1.CostRule_COST_RULE_TOTAL_MINUS_PROMPT, `"cost_rule":"total_minus_prompt"`, ""},
		{`,"cost_rule":"completion_plus_reasoning"`, triagev1.CostRule_COST_RULE_COMPLETION_PLUS_REASONING, `"cost_rule":"completion_plus_reasoning"`, ""},
		{`,"cost_rule":"none"`, triagev1.CostRule_COST_RULE_NONE, `"cost_rule":"none"`, ""},
		{`,"cost_rule":"harness_output","source":"logs/a.eval#id=1,epoch=1"`, triagev1.CostRule_COST_RULE_HARNESS_OUTPUT, `"cost_rule":"harness_output","source":"logs/a.eval#id=1,epoch=1"`, ""},
		{`,"cost_rule":"COMPLETION"`, 0, "", `cost_rule: must be one of completion, total_minus_prompt, completion_plus_reasoning, none, unknown, harness_output, got "COMPLETION"`},
		{`,"cost_rule":3`, 0, "", "cost_rule"},
	}
	for _, tc := range tests {
		rec, err := ParseLine([]byte(base + tc.extra + "}"))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.extra, err, tc.err)
			}
			continue
		}
		if err != nil || rec.GetCostRule() != tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.extra, rec.GetCostRule(), err, tc.want)
			continue
		}
		line, err := FormatLine(rec)
		if err != nil || !strings.Contains(string(line), tc.written) {
			t.Errorf("%s: formatted %s, %v; want %s", tc.extra, line, err, tc.written)
		}
	}
}

// TestSampleKey: sample is read as given (absent is 0, the ground truth),
// written only for a later sample, and a value beyond int32 is refused by
// key; its range is the Executor's to judge (records[i].sample).
func TestSampleKey(t *testing.T) {
	const base = `{"model":"m","mode":"extended","dataset":"d","problem_id":"p","cost":7953,"correct":true,"measured_at":"2026-01-02T03:04:05Z"`
	tests := []struct {
		extra   string
		want    int32
		written string // "" means: no sample key written
		err     string
	}{
		{``, 0, "", ""},
		{`,"sample":0`, 0, "", ""},
		{`,"sample":1`, 1, `"sample":1`, ""},
		{`,"sample":3`, 3, `"sample":3`, ""},
		{`,"sample":-2`, -2, `"sample":-2`, ""},
		{`,"sample":1099511627776`, 0, "", "sample"},
		{`,"sample":"2"`, 0, "", "sample"},
		{`,"sample":2.5`, 0, "", "sample"},
	}
	for _, tc := range tests {
		rec, err := ParseLine([]byte(base + tc.extra + "}"))
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want one naming %q", tc.extra, err, tc.err)
			}
			continue
		}
		if err != nil || rec.GetSample() != tc.want {
			t.Errorf("%s: sample %d, %v; want %d", tc.extra, rec.GetSample(), err, tc.want)
			continue
		}
		line, err := FormatLine(rec)
		if err != nil || (tc.written == "") != !strings.Contains(string(line), `"sample"`) || !strings.Contains(string(line), tc.written) {
			t.Errorf("%s: formatted %s, %v; want %q", tc.extra, line, err, tc.written)
		}
	}
}
