package scoring

import (
	"context"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
)

// Executor is what the service needs of the Executor.
type Executor interface {
	// ExecutePlan normalizes and executes a plan (triage.v1.ExecutorService).
	ExecutePlan(context.Context, *triagev1.ExecutePlanRequest) (*triagev1.ExecutePlanResponse, error)
}

// Oracle is what the service needs of the Oracle.
type Oracle interface {
	// ComputeReferences computes the references of a pool
	// (triage.v1.OracleService).
	ComputeReferences(context.Context, *triagev1.ComputeReferencesRequest) (*triagev1.ComputeReferencesResponse, error)
}

// LocalExecutor calls an Executor of this process, validating each request
// first as the server runner would.
func LocalExecutor(s *executor.Service) Executor { return localExecutor{s} }

type localExecutor struct{ s *executor.Service }

func (l localExecutor) ExecutePlan(ctx context.Context, req *triagev1.ExecutePlanRequest) (*triagev1.ExecutePlanResponse, error) {
	if err := l.s.ValidateRequest(triagev1.ExecutorService_ExecutePlan_FullMethodName, req); err != nil {
		return nil, err
	}
	return l.s.ExecutePlan(ctx, req)
}

// LocalOracle calls an Oracle of this process, validating each request
// first as the server runner would.
func LocalOracle(s *oracle.Service) Oracle { return localOracle{s} }

type localOracle struct{ s *oracle.Service }

func (l localOracle) ComputeReferences(ctx context.Context, req *triagev1.ComputeReferencesRequest) (*triagev1.ComputeReferencesResponse, error) {
	if err := l.s.ValidateRequest(triagev1.OracleService_ComputeReferences_FullMethodName, req); err != nil {
		return nil, err
	}
	return l.s.ComputeReferences(ctx, req)
}

// RemoteExecutor calls an Executor through its gRPC client.
func RemoteExecutor(c triagev1.ExecutorServiceClient) Executor { return remoteExecutor{c} }

type remoteExecutor struct {
	c triagev1.ExecutorServiceClient
}

func (r remoteExecutor) ExecutePlan(ctx context.Context, req *triagev1.ExecutePlanRequest) (*triagev1.ExecutePlanResponse, error) {
	return r.c.ExecutePlan(ctx, req)
}

// RemoteOracle calls an Oracle through its gRPC client.
func RemoteOracle(c triagev1.OracleServiceClient) Oracle { return remoteOracle{c} }

type remoteOracle struct{ c triagev1.OracleServiceClient }

func (r remoteOracle) ComputeReferences(ctx context.Context, req *triagev1.ComputeReferencesRequest) (*triagev1.ComputeReferencesResponse, error) {
	return r.c.ComputeReferences(ctx, req)
}
