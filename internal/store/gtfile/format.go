package gtfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/jsonloc"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/costrule"
)

// line is one line of a ground-truth JSONL file.
type line struct {
	Model          string     `json:"model"`
	Mode           string     `json:"mode"`
	Dataset        string     `json:"dataset"`
	ProblemID      string     `json:"problem_id"`
	Cost           int64      `json:"cost"`
	Correct        bool       `json:"correct"`
	Gradeable      *bool      `json:"gradeable,omitempty"`
	FinishReason   string     `json:"finish_reason,omitempty"`
	LatencyMS      float64    `json:"latency_ms,omitempty"`
	ResponseSHA256 string     `json:"response_sha256,omitempty"`
	Error          string     `json:"error,omitempty"`
	MeasuredAt     *time.Time `json:"measured_at,omitempty"`
	LuckyGuess     bool       `json:"lucky_guess,omitempty"`
	CostRule       string     `json:"cost_rule,omitempty"`
	// Sample is the repeated Phase 0 sample (SPEC §9): absent, 0 or 1 for
	// the ground truth, j ≥ 2 for the j-th sample.
	Sample int32  `json:"sample,omitempty"`
	Source string `json:"source,omitempty"`
	// ProblemSHA256 is the digest of the problem as measured, absent when
	// unknown.
	ProblemSHA256 string `json:"problem_sha256,omitempty"`
}

// modes maps the file's mode names to the API's.
var modes = map[string]triagev1.SolverMode{
	"standard": triagev1.SolverMode_SOLVER_MODE_STANDARD,
	"extended": triagev1.SolverMode_SOLVER_MODE_EXTENDED,
}

// ParseLine decodes one JSONL line into a record. Gradeable defaults to
// true and cost_rule to unknown; an unknown key, a wrong type or a cost_rule
// that names no rule is an error naming the key.
func ParseLine(data []byte) (*triagev1.GroundTruthRecord, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var l line
	if err := dec.Decode(&l); err != nil {
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typeErr):
			return nil, fmt.Errorf("%s: %s", typeErr.Field, jsonloc.DescribeTypeError(typeErr))
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return nil, fmt.Errorf("%s: unknown key", strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`))
		}
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("one JSON object per line")
	}
	for _, o := range jsonloc.Oddities(data) {
		if o.Kind == jsonloc.RepeatedKey {
			// encoding/json would keep its last value: a record with two
			// costs (or two verdicts) measures neither.
			return nil, fmt.Errorf("%s: repeated key", o.Field)
		}
	}
	gradeable := l.Gradeable == nil || *l.Gradeable
	r := &triagev1.GroundTruthRecord{
		Solver:         &triagev1.Solver{Model: l.Model, Mode: modes[l.Mode]},
		Dataset:        l.Dataset,
		ProblemId:      l.ProblemID,
		Cost:           l.Cost,
		Correct:        l.Correct,
		Gradeable:      gradeable,
		FinishReason:   l.FinishReason,
		Latency:        durationpb.New(time.Duration(l.LatencyMS * float64(time.Millisecond))),
		ResponseSha256: l.ResponseSHA256,
		Error:          l.Error,
		LuckyGuess:     l.LuckyGuess,
		Sample:         l.Sample,
		Source:         l.Source,
		ProblemSha256:  l.ProblemSHA256,
	}
	if l.Mode != "" && r.Solver.Mode == triagev1.SolverMode_SOLVER_MODE_UNSPECIFIED {
		return nil, fmt.Errorf(`mode: must be "standard" or "extended", got %q`, l.Mode)
	}
	if l.CostRule != "" {
		rule := costrule.Rule(l.CostRule)
		if err := rule.Check(); err != nil {
			return nil, fmt.Errorf("cost_rule: %v", err)
		}
		r.CostRule = protoconv.CostRuleToProto(rule)
	}
	if l.MeasuredAt != nil {
		r.MeasuredTime = timestamppb.New(*l.MeasuredAt)
	}
	return r, nil
}

// FormatLine encodes a record as one JSONL line, the format ParseLine reads.
func FormatLine(r *triagev1.GroundTruthRecord) ([]byte, error) {
	gradeable := r.GetGradeable()
	measured := r.GetMeasuredTime().AsTime()
	return json.Marshal(line{
		Model: r.GetSolver().GetModel(), Mode: modeName(r.GetSolver().GetMode()), Dataset: r.GetDataset(), ProblemID: r.GetProblemId(),
		Cost: r.GetCost(), Correct: r.GetCorrect(), Gradeable: &gradeable, FinishReason: r.GetFinishReason(),
		LatencyMS: float64(r.GetLatency().AsDuration()) / float64(time.Millisecond), ResponseSHA256: r.GetResponseSha256(),
		Error: r.GetError(), MeasuredAt: &measured, LuckyGuess: r.GetLuckyGuess(),
		CostRule: string(protoconv.CostRuleFromProto(r.GetCostRule())), Sample: r.GetSample(), Source: r.GetSource(),
		ProblemSHA256: r.GetProblemSha256(),
	})
}

// RecordField matches a service field path such as "records[12].solver.mode".
var RecordField = regexp.MustCompile(`^records\[(\d+)\](?:\.(.+))?$`)

// LineKeys maps the service's record fields to the JSONL keys.
var LineKeys = map[string]string{
	"solver.model":  "model",
	"solver.mode":   "mode",
	"latency":       "latency_ms",
	"measured_time": "measured_at",
}

// Mode returns the API's mode for a file's mode name ("standard",
// "extended"), or SOLVER_MODE_UNSPECIFIED.
func Mode(name string) triagev1.SolverMode { return modes[name] }

// modeName is the file's name of a mode ("standard", "extended"), "" for
// none.
func modeName(m triagev1.SolverMode) string {
	for name, v := range modes {
		if v == m {
			return name
		}
	}
	return ""
}
