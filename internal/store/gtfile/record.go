package gtfile

import (
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// FromRecord returns the API form of a stored record: what ListGroundTruth
// and RunBaseline answer and FormatLine writes. A mode that is not a mode
// name becomes SOLVER_MODE_UNSPECIFIED.
func FromRecord(r groundtruth.Record) *triagev1.GroundTruthRecord {
	return &triagev1.GroundTruthRecord{
		Solver:         &triagev1.Solver{Model: r.Solver.Model, Mode: modes[r.Solver.Mode]},
		Dataset:        r.Dataset,
		ProblemId:      r.ProblemID,
		Cost:           r.Cost,
		CostRule:       protoconv.CostRuleToProto(r.CostRule),
		Correct:        r.Correct,
		Gradeable:      r.Gradeable,
		FinishReason:   r.FinishReason,
		Latency:        durationpb.New(r.Latency),
		ResponseSha256: r.ResponseSHA256,
		Error:          r.Error,
		MeasuredTime:   timestamppb.New(r.MeasuredAt),
		LuckyGuess:     r.LuckyGuess,
		Source:         r.Source,
		ProblemSha256:  r.ProblemSHA256,
		Sample:         int32(r.Sample),
	}
}
