package scoring

import (
	"context"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// Service implements triagev1.ScoringServiceServer.
type Service struct {
	triagev1.UnimplementedScoringServiceServer
	executor Executor
	oracle   Oracle
	workers  int
}

// New returns a Scoring service composing exec and orc. workers is how
// many requests of a ScorePlans batch are scored at once (at least 1).
func New(exec Executor, orc Oracle, workers int) *Service {
	return &Service{executor: exec, oracle: orc, workers: max(workers, 1)}
}

// ScorePlan scores one plan on one pool. The server runner calls
// ValidateRequest first.
func (s *Service) ScorePlan(ctx context.Context, req *triagev1.ScorePlanRequest) (*triagev1.ScorePlanResponse, error) {
	return s.score(ctx, req)
}
