package executor

import (
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// Service implements triagev1.ExecutorServiceServer.
type Service struct {
	triagev1.UnimplementedExecutorServiceServer
	store    groundtruth.Store
	now      func() time.Time
	baseline *Baseline
}

// Option configures an Executor.
type Option func(*Service)

// WithBaseline lets the Executor run Phase 0 baselines (RunBaseline).
func WithBaseline(b *Baseline) Option { return func(s *Service) { s.baseline = b } }

// New returns an Executor over st, which may be nil for an executor that
// only scores inline pools. now stamps imported records that carry no
// measurement time.
func New(st groundtruth.Store, now func() time.Time, opts ...Option) *Service {
	if st != nil {
		st = outageAware{st}
	}
	s := &Service{store: st, now: now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// errNoStore is returned for calls that need stored ground truth when the
// executor was started without a store.
var errNoStore = &apperr.PreconditionError{Reason: "this executor has no ground-truth store; send an inline pool or start it with a store"}
