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
	refs     *refCache // nil: none
	scratch  scratchPool
}

// Options configure a Scoring service.
type Options struct {
	// Workers is how many requests of a ScorePlans batch are scored at
	// once; 0 means 1.
	Workers int
	// CacheEntries is how many of the Oracle's answers the service keeps
	// (refcache.go); 0 keeps none.
	CacheEntries int
}

// DefaultCacheEntries is the references cache's size triage serve uses: a
// few MiB for the paper's pools, at most 40 MiB.
const DefaultCacheEntries = 512

// New returns a Scoring service composing exec and orc.
func New(exec Executor, orc Oracle, opts Options) *Service {
	return &Service{executor: exec, oracle: orc, workers: max(opts.Workers, 1), refs: newRefCache(opts.CacheEntries)}
}

// ScorePlan scores one plan on one pool. The server runner calls
// ValidateRequest first.
func (s *Service) ScorePlan(ctx context.Context, req *triagev1.ScorePlanRequest) (*triagev1.ScorePlanResponse, error) {
	return s.score(ctx, req)
}
