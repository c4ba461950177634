package gtfile

import (
	"strings"
	"testing"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/store/groundtruth"
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

// TestProblemSHA256Key: problem_sha256 is read as given (absent is empty:
// unknown) and written only when known; a value of another type is refused
// by key. Whether it is a digest is the Executor's to judge
// (records[i].problem_sha256).
func TestProblemSHA256Key(t *testing.T) {
	const base = `{"model":"m","mode":"extended","dataset":"d","problem_id":"p","cost":7953,"correct":true,"measured_at":"2026-01-02T03:04:05Z"`
	digest := strings.Repeat("0123456789abcdef", 4)
	tests := []struct {
		extra   string
		want    string
		written string // "" means: no problem_sha256 key written
		err     string
	}{
		{``, "", "", ""},
		{`,"problem_sha256":""`, "", "", ""},
		{`,"problem_sha256":"` + digest + `"`, digest, `"problem_sha256":"` + digest + `"`, ""},
		{`,"problem_sha256":"ABC"`, "ABC", `"problem_sha256":"ABC"`, ""},
		{`,"problem_sha256":42`, "", "", "problem_sha256"},
		{`,"problem_sha256":null`, "", "", ""},
	}
	for _, tc := range tests {
		rec, err := ParseLine([]byte(base + tc.extra + "}"))
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want one naming %q", tc.extra, err, tc.err)
			}
			continue
		}
		if err != nil || rec.GetProblemSha256() != tc.want {
			t.Errorf("%s: problem_sha256 %q, %v; want %q", tc.extra, rec.GetProblemSha256(), err, tc.want)
			continue
		}
		line, err := FormatLine(rec)
		if err != nil || (tc.written == "") != !strings.Contains(string(line), `"problem_sha256"`) || !strings.Contains(string(line), tc.written) {
			t.Errorf("%s: formatted %s, %v; want %q", tc.extra, line, err, tc.written)
		}
	}
}

// TestFromRecordCarriesProblemSHA256: a stored record's digest reaches the
// API form and the line written from it.
func TestFromRecordCarriesProblemSHA256(t *testing.T) {
	digest := strings.Repeat("ab", 32)
	r := groundtruth.Record{Key: groundtruth.Key{Solver: groundtruth.Solver{Model: "m", Mode: groundtruth.ModeStandard}, Dataset: "d", ProblemID: "p"},
		Cost: 1, Gradeable: true, ProblemSHA256: digest, MeasuredAt: time.Unix(1, 0)}
	rec := FromRecord(r)
	line, err := FormatLine(rec)
	if rec.GetProblemSha256() != digest || err != nil || !strings.Contains(string(line), `"problem_sha256":"`+digest+`"`) {
		t.Errorf("FromRecord: %q, line %s, %v; want digest %s", rec.GetProblemSha256(), line, err, digest)
	}
}
