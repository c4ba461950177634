package executor

import (
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/gtfile"
)

// modeNames maps the API's solver modes to the store's; an unspecified mode
// maps to "", which validation rejects.
var modeNames = map[triagev1.SolverMode]string{
	triagev1.SolverMode_SOLVER_MODE_STANDARD: groundtruth.ModeStandard,
	triagev1.SolverMode_SOLVER_MODE_EXTENDED: groundtruth.ModeExtended,
}

func solverFromProto(s *triagev1.Solver) groundtruth.Solver {
	return groundtruth.Solver{Model: s.GetModel(), Mode: modeNames[s.GetMode()]}
}

// recordFromProto converts a record; an unset measurement time becomes now.
func recordFromProto(r *triagev1.GroundTruthRecord, now time.Time) groundtruth.Record {
	measured := now
	if r.GetMeasuredTime() != nil {
		measured = r.GetMeasuredTime().AsTime()
	}
	return groundtruth.Record{
		Key: groundtruth.Key{
			Solver:    solverFromProto(r.GetSolver()),
			Dataset:   r.GetDataset(),
			ProblemID: r.GetProblemId(),
		},
		Cost:           r.GetCost(),
		CostRule:       protoconv.CostRuleFromProto(r.GetCostRule()),
		Correct:        r.GetCorrect(),
		Gradeable:      r.GetGradeable(),
		FinishReason:   r.GetFinishReason(),
		Latency:        r.GetLatency().AsDuration(),
		ResponseSHA256: r.GetResponseSha256(),
		Error:          r.GetError(),
		MeasuredAt:     measured,
		LuckyGuess:     r.GetLuckyGuess(),
		Sample:         int(r.GetSample()),
		Source:         r.GetSource(),
		ProblemSHA256:  r.GetProblemSha256(),
	}
}

// recordToProto is the API form of a stored record (gtfile.FromRecord, the
// one conversion the JSONL format shares).
func recordToProto(r groundtruth.Record) *triagev1.GroundTruthRecord { return gtfile.FromRecord(r) }
