package orchestrator_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/work"
)

// refusingOracle answers the preflight's call (the first) and refuses
// every later one.
type refusingOracle struct {
	triagev1.OracleServiceClient
	calls *atomic.Int32
}

func (o refusingOracle) ComputeReferences(ctx context.Context, req *triagev1.ComputeReferencesRequest, opts ...grpc.CallOption) (*triagev1.ComputeReferencesResponse, error) {
	if o.calls.Add(1) == 1 {
		return o.OracleServiceClient.ComputeReferences(ctx, req, opts...)
	}
	return nil, status.Error(codes.Unavailable, "oracle refuses")
}

// TestTakenOverCellFailureStopsTheRun: cells a dead worker held are taken
// over once its leases end; when computing them fails (the Oracle refuses),
// the run returns the error instead of reporting itself complete.
func TestTakenOverCellFailureStopsTheRun(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	cfg := writeFixture(t, dir, srv.URL())
	rs := runOnce(t, cfg)
	// Some cells become stale (see TestResumeRecomputesStaleCells)…
	editFile(t, filepath.Join(dir, "gt.jsonl"),
		`"mode":"standard","dataset":"alpha","problem_id":"alpha-04","cost":688`,
		`"mode":"standard","dataset":"alpha","problem_id":"alpha-04","cost":1688`)
	// …and a worker that died holds every cell, for one more second.
	ctx := context.Background()
	stored, err := rs.Cells(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dead := work.NewLeases(orchestrator.CellUnits(rs), "dead", time.Second, time.Now)
	for key := range stored {
		taken, err := dead.Take(ctx, []string{key}, []string{""})
		if err != nil || !taken[key] {
			t.Fatalf("dead worker: take %s: %v, %v", key, taken, err)
		}
	}

	_, _, err = runWithClients(t, cfg, orchestrator.Options{Lease: time.Second}, func(c *orchestrator.Clients) {
		c.Oracle = refusingOracle{c.Oracle, &atomic.Int32{}}
	})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("run = %v, want the Oracle's Unavailable from the cells taken over", err)
	}
}
