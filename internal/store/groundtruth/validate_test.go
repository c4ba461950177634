package groundtruth

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/protocol/costrule"
)

func TestValidateRecord(t *testing.T) {
	good := Record{
		Key:        Key{Solver: Solver{Model: "m", Mode: ModeStandard}, Dataset: "aime", ProblemID: "p1"},
		Cost:       10,
		CostRule:   costrule.Completion,
		Correct:    true,
		Gradeable:  true,
		MeasuredAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	tests := []struct {
		name   string
		mutate func(*Record)
		fields string
	}{
		{"valid", func(*Record) {}, ""},
		{"ungradeable with zero cost", func(r *Record) { r.Gradeable, r.Correct, r.Cost = false, false, 0 }, ""},
		{"no response", func(r *Record) { r.Gradeable, r.Correct, r.Cost, r.CostRule = false, false, 0, costrule.None }, ""},
		{"rule unknown", func(r *Record) { r.CostRule = costrule.Unknown }, ""},
		{"rule missing", func(r *Record) { r.CostRule = "" }, "x.cost_rule"},
		{"source too long", func(r *Record) { r.Source = strings.Repeat("s", MaxTextBytes+1) }, "x.source"},
		{"source with NUL", func(r *Record) { r.Source = "a.eval\x00#id=1" }, "x.source"},
		{"line break in problem id", func(r *Record) { r.ProblemID = "p1\nINFO forged" }, "x.problem_id"},
		{"rule not a rule", func(r *Record) { r.CostRule = "max" }, "x.cost_rule"},
		{"no response but gradeable", func(r *Record) { r.CostRule = costrule.None }, "x.cost_rule"},
		{"no response but a cost", func(r *Record) { r.Gradeable, r.Correct, r.CostRule = false, false, costrule.None }, "x.cost_rule"},
		{"empty keys", func(r *Record) { r.Solver.Model, r.Dataset, r.ProblemID = "", "", "" }, "x.solver.model x.dataset x.problem_id"},
		{"bad mode", func(r *Record) { r.Solver.Mode = "fast" }, "x.solver.mode"},
		{"gradeable zero cost", func(r *Record) { r.Cost = 0 }, "x.cost"},
		{"negative cost", func(r *Record) { r.Gradeable, r.Correct, r.Cost = false, false, -1 }, "x.cost"},
		{"correct but ungradeable", func(r *Record) { r.Gradeable = false }, "x.correct"},
		{"lucky guess", func(r *Record) { r.Correct, r.LuckyGuess = false, true }, ""},
		{"lucky guess scored as correct", func(r *Record) { r.LuckyGuess = true }, "x.lucky_guess"},
		{"lucky guess not graded", func(r *Record) { r.Correct, r.Gradeable, r.Cost, r.LuckyGuess = false, false, 0, true }, "x.lucky_guess"},
		{"negative latency", func(r *Record) { r.Latency = -time.Second }, "x.latency"},
		{"bad hash", func(r *Record) { r.ResponseSHA256 = strings.Repeat("A", 64) }, "x.response_sha256"},
		{"problem digest", func(r *Record) { r.ProblemSHA256 = strings.Repeat("0a", 32) }, ""},
		{"problem digest in capitals", func(r *Record) { r.ProblemSHA256 = strings.Repeat("0A", 32) }, "x.problem_sha256"},
		{"problem digest too short", func(r *Record) { r.ProblemSHA256 = strings.Repeat("0a", 31) }, "x.problem_sha256"},
		{"problem digest too long", func(r *Record) { r.ProblemSHA256 = strings.Repeat("0a", 32) + "0" }, "x.problem_sha256"},
		{"problem digest not hex", func(r *Record) { r.ProblemSHA256 = strings.Repeat("g", 64) }, "x.problem_sha256"},
		{"problem digest with NUL", func(r *Record) { r.ProblemSHA256 = strings.Repeat("0", 63) + "\x00" }, "x.problem_sha256"},
		{"long dataset", func(r *Record) { r.Dataset = strings.Repeat("d", MaxDatasetBytes+1) }, "x.dataset"},
		{"invalid UTF-8", func(r *Record) { r.ProblemID = "p\xff" }, "x.problem_id"},
		{"NUL byte", func(r *Record) { r.Error = "a\x00b" }, "x.error"},
		{"no time", func(r *Record) { r.MeasuredAt = time.Time{} }, "x.measured_time"},
		{"year out of range", func(r *Record) { r.MeasuredAt = time.Date(12000, 1, 1, 0, 0, 0, 0, time.UTC) }, "x.measured_time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := good
			tt.mutate(&r)
			var v apperr.Violations
			ValidateRecord(&v, "x", r)
			var fields []string
			var inv *apperr.InvalidArgumentError
			if errors.As(v.Err(), &inv) {
				for _, fv := range inv.Violations {
					fields = append(fields, fv.Field)
				}
			}
			if got := strings.Join(fields, " "); got != tt.fields {
				t.Errorf("violations on %q, want %q", got, tt.fields)
			}
		})
	}
}

// TestDigestRule: both digests of a record follow one rule and give one
// reason, each naming its own field.
func TestDigestRule(t *testing.T) {
	for _, tc := range []struct {
		field  string
		mutate func(*Record)
	}{
		{"response_sha256", func(r *Record) { r.ResponseSHA256 = "abc" }},
		{"problem_sha256", func(r *Record) { r.ProblemSHA256 = "abc" }},
	} {
		r := Record{Key: Key{Solver: Solver{Model: "m", Mode: ModeStandard}, Dataset: "d", ProblemID: "p"},
			Cost: 1, CostRule: costrule.Completion, Gradeable: true, MeasuredAt: time.Unix(1, 0)}
		tc.mutate(&r)
		var v apperr.Violations
		ValidateRecord(&v, "", r)
		var inv *apperr.InvalidArgumentError
		want := apperr.FieldViolation{Field: tc.field, Description: "must be 64 lowercase hex digits or empty"}
		if !errors.As(v.Err(), &inv) || len(inv.Violations) != 1 || inv.Violations[0] != want {
			t.Errorf("%s: %v, want the one violation %+v", tc.field, v.Err(), want)
		}
	}
}
