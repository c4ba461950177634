package cli

import (
	"context"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// listOnce is the Executor as a quote reads it: a ListGroundTruth request
// it has answered before is answered from memory. A quote reads each
// solver's ground truth for Phase 0 (orchestrator.PendingBaseline) and
// again for the grid (Runner.PendingPlans), and writes nothing between.
type listOnce struct {
	triagev1.ExecutorServiceClient
	mu    sync.Mutex
	pages map[string]*triagev1.ListGroundTruthResponse
}

// newListOnce wraps exec.
func newListOnce(exec triagev1.ExecutorServiceClient) *listOnce {
	return &listOnce{ExecutorServiceClient: exec, pages: map[string]*triagev1.ListGroundTruthResponse{}}
}

// ListGroundTruth answers from memory a request answered before; its
// callers only read the records.
func (l *listOnce) ListGroundTruth(ctx context.Context, req *triagev1.ListGroundTruthRequest, opts ...grpc.CallOption) (*triagev1.ListGroundTruthResponse, error) {
	raw, err := proto.MarshalOptions{Deterministic: true}.Marshal(req)
	if err != nil {
		return nil, err
	}
	key := string(raw)
	l.mu.Lock()
	page, ok := l.pages[key]
	l.mu.Unlock()
	if ok {
		return page, nil
	}
	page, err = l.ExecutorServiceClient.ListGroundTruth(ctx, req, opts...)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.pages[key] = page
	l.mu.Unlock()
	return page, nil
}
