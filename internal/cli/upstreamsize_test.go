package cli

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
)

// TestUpstreamAnswersUpToTheMessageLimit: a served Scoring service takes
// its upstreams' answers up to --max-message-bytes, as the upstreams send
// them and as it takes them in process. It took grpc's default of 4 MiB:
// a pool of 31,250 items at 64 budgets, which the Scoring service
// answers when it serves the Oracle too, was ResourceExhausted "grpc:
// received message larger than max (14740325 vs. 4194304)" when the
// Oracle was remote.
func TestUpstreamAnswersUpToTheMessageLimit(t *testing.T) {
	addr := serveOracle(t)
	u := &upstreamFlags{oracleAddr: addr, readyWait: time.Minute, maxMessageBytes: server.DefaultConfig().MaxMessageBytes}
	up, closeAll, err := u.dial([]string{"scoring"}, telemetry.Disabled())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeAll)
	req := &triagev1.ComputeReferencesRequest{Random: &triagev1.RandomReferenceOptions{Samples: 1}}
	for i := range 50_000 {
		req.Items = append(req.Items, &triagev1.GroundTruthItem{Id: fmt.Sprintf("problem-%06d", i), Cost: int64(1 + i%1000), Correct: true})
	}
	for range 8 {
		req.Budgets = append(req.Budgets, &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 1}})
	}
	resp, err := up.oracle.ComputeReferences(context.Background(), req)
	if err != nil {
		t.Fatalf("an answer under --max-message-bytes: %v", err)
	}
	if size := proto.Size(resp); size <= 4<<20 {
		t.Fatalf("the answer is %d bytes, not over grpc's default 4 MiB: the test checks nothing", size)
	}
}
