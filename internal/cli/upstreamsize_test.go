package cli

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
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
	addr := serveOracle(t, nil)
	u := &upstreamFlags{oracleAddr: addr, readyWait: time.Minute, maxMessageBytes: server.DefaultConfig().MaxMessageBytes}
	up, closeAll, err := u.dial([]string{"scoring"}, telemetry.Disabled())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeAll)
	resp, err := up.oracle.ComputeReferences(context.Background(), bigAnswerRequest())
	if err != nil {
		t.Fatalf("an answer under --max-message-bytes: %v", err)
	}
	if size := proto.Size(resp); size <= 4<<20 {
		t.Fatalf("the answer is %d bytes, not over grpc's default 4 MiB: the test checks nothing", size)
	}
}

// TestClientsTakeAnswersUpToTheServersLimit: the commands' clients
// (resilientOptions: score, run, ground-truth … with remote services) take
// an answer up to what a server sends by default (16 MiB), not grpc's
// 4 MiB: `triage score` of a pool of 60,000 items answered in process and
// failed "received message larger than max (5147112 vs. 4194304)" with
// --scoring-addr.
func TestClientsTakeAnswersUpToTheServersLimit(t *testing.T) {
	cc, err := grpc.NewClient(serveOracle(t, nil), append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	resp, err := triagev1.NewOracleServiceClient(cc).ComputeReferences(context.Background(), bigAnswerRequest())
	if err != nil {
		t.Fatalf("an answer under the server's limit: %v", err)
	}
	if size := proto.Size(resp); size <= 4<<20 {
		t.Fatalf("the answer is %d bytes, not over grpc's default 4 MiB: the test checks nothing", size)
	}
}

// bigAnswerRequest asks the Oracle for an answer of about 8 MB: 50,000
// items, all in the oracle's plan at each of 8 budgets.
func bigAnswerRequest() *triagev1.ComputeReferencesRequest {
	req := &triagev1.ComputeReferencesRequest{Random: &triagev1.RandomReferenceOptions{Samples: 1}}
	for i := range 50_000 {
		req.Items = append(req.Items, &triagev1.GroundTruthItem{Id: fmt.Sprintf("problem-%06d", i), Cost: int64(1 + i%1000), Correct: true})
	}
	for range 8 {
		req.Budgets = append(req.Budgets, &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 1}})
	}
	return req
}
