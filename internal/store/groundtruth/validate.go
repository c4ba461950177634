package groundtruth

import (
	"strings"
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/protocol/pool"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/protocol/costrule"
)

// Field limits of a record.
const (
	MaxModelBytes   = 256
	MaxDatasetBytes = 128
	MaxProblemBytes = pool.MaxIDBytes
	MaxTextBytes    = 4096 // finish reason, error and source
	MaxCost         = 1_000_000_000_000
)

// ValidateRecord adds to v every field of r that breaks the record rules,
// naming fields as prefix + "." + field (prefix "records[7]" gives
// "records[7].cost"; an empty prefix gives "cost"). Field names are those
// of the triage.v1 GroundTruthRecord message (MeasuredAt is
// "measured_time"), since that is where callers set them.
func ValidateRecord(v *apperr.Violations, prefix string, r Record) {
	f := func(name string) string {
		if prefix == "" {
			return name
		}
		return prefix + "." + name
	}
	checkText(v, f("solver.model"), r.Solver.Model, MaxModelBytes, true)
	if r.Solver.Mode != ModeStandard && r.Solver.Mode != ModeExtended {
		v.Add(f("solver.mode"), "must be %q or %q, got %q", ModeStandard, ModeExtended, r.Solver.Mode)
	}
	checkText(v, f("dataset"), r.Dataset, MaxDatasetBytes, true)
	if problem := pool.IDProblem(r.ProblemID); problem != "" {
		v.Add(f("problem_id"), "%s", problem)
	}
	switch {
	case r.Gradeable && (r.Cost <= 0 || r.Cost > MaxCost):
		v.Add(f("cost"), "a gradeable record needs a cost in [1, %d] tokens, got %d", int64(MaxCost), r.Cost)
	case !r.Gradeable && (r.Cost < 0 || r.Cost > MaxCost):
		v.Add(f("cost"), "must be in [0, %d] tokens, got %d", int64(MaxCost), r.Cost)
	}
	if err := r.CostRule.Check(); err != nil {
		v.Add(f("cost_rule"), "%v", err)
	} else if r.CostRule == costrule.None && (r.Gradeable || r.Cost != 0) {
		v.Add(f("cost_rule"), "%q says no cost was counted: the record must have cost 0 and not be gradeable", costrule.None)
	}
	if !r.Gradeable && r.Correct {
		v.Add(f("correct"), "a record that is not gradeable cannot be correct")
	}
	switch {
	case r.LuckyGuess && r.Correct:
		v.Add(f("lucky_guess"), "marks a guess that was not scored: an unsolvable item's record cannot also be correct (SPEC §1: y = 0)")
	case r.LuckyGuess && !r.Gradeable:
		v.Add(f("lucky_guess"), "a record that is not gradeable was not graded")
	}
	if r.Latency < 0 {
		v.Add(f("latency"), "must be ≥ 0, got %v", r.Latency)
	}
	checkSHA256(v, f("response_sha256"), r.ResponseSHA256)
	checkText(v, f("finish_reason"), r.FinishReason, MaxTextBytes, false)
	checkText(v, f("error"), r.Error, MaxTextBytes, false)
	if r.Sample < 0 || r.Sample > MaxSample {
		v.Add(f("sample"), "must be in [0, %d] (0 or 1: the ground truth), got %d", MaxSample, r.Sample)
	}
	checkText(v, f("source"), r.Source, MaxTextBytes, false)
	checkSHA256(v, f("problem_sha256"), r.ProblemSHA256)
	switch y := r.MeasuredAt.UTC().Year(); {
	case r.MeasuredAt.IsZero():
		v.Add(f("measured_time"), "must be set")
	case y < 1970 || y > 9999:
		v.Add(f("measured_time"), "must be between 1970 and 9999, got year %d", y)
	}
}

// checkText enforces the rules every stored string follows: valid UTF-8
// without NUL bytes (PostgreSQL stores no others, so both backends accept
// exactly the same strings) and a length bound.
func checkText(v *apperr.Violations, field, s string, maxBytes int, required bool) {
	switch {
	case required && s == "":
		v.Add(field, "must not be empty")
	case len(s) > maxBytes:
		v.Add(field, "must be at most %d bytes, got %d", maxBytes, len(s))
	case !utf8.ValidString(s):
		v.Add(field, "must be valid UTF-8")
	case strings.IndexByte(s, 0) >= 0:
		v.Add(field, "must not contain NUL bytes")
	}
}

// checkSHA256 enforces the rule of every stored digest (response_sha256,
// problem_sha256): a hex SHA-256 in lowercase, or empty for none.
func checkSHA256(v *apperr.Violations, field, s string) {
	if s != "" && !isLowerHex(s, 64) {
		v.Add(field, "must be 64 lowercase hex digits or empty")
	}
}

func isLowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
