package cli

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/services/oracle"
)

// TestScoringBalancesOverItsUpstreamsReplicas: a served Scoring service
// whose --oracle-addr resolves to two Oracle replicas (as a headless
// Service's name resolves to its pods) spreads its calls over both
// (serviceConfig's round_robin), instead of sending every call to one.
func TestScoringBalancesOverItsUpstreamsReplicas(t *testing.T) {
	oracles := []*countingOracle{{Service: oracle.NewService()}, {Service: oracle.NewService()}}
	var addrs []resolver.Address
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	for _, o := range oracles {
		srv, err := server.New(cfg, slog.New(slog.DiscardHandler), telemetry.Disabled(), []server.Service{{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: o}})
		if err != nil {
			t.Fatal(err)
		}
		addrs = append(addrs, resolver.Address{Addr: servertest.ServeTCP(t, srv)})
	}
	// The name of both replicas, as DNS gives a headless Service's.
	r := manual.NewBuilderWithScheme("triagetestreplicas")
	r.InitialState(resolver.State{Addresses: addrs})
	resolver.Register(r)

	addr, stop := serveInTest(t, nil, "--services", "scoring", "--oracle-addr", "triagetestreplicas:///oracles", "--store", filepath.Join(t.TempDir(), "gt.db"))
	defer stop()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := triagev1.NewScoringServiceClient(conn)
	const calls = 20
	for seed := range uint64(calls) {
		// Each seed is a pool of its own: no call finds its references
		// in Scoring's cache, so each reaches an Oracle.
		_, err := client.ScorePlan(context.Background(), &triagev1.ScorePlanRequest{
			Pool: &triagev1.ScorePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: []*triagev1.GroundTruthItem{
				{Id: "a", Cost: 100 + int64(seed), Correct: true}, {Id: "b", Cost: 200, Correct: false}, {Id: "c", Cost: 300, Correct: true},
			}}},
			Plan:    []*triagev1.PlanStep{{Id: "a", Tokens: 150}, {Id: "c", Tokens: 300}},
			Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 0.5}}},
		}, grpc.WaitForReady(true))
		if err != nil {
			t.Fatal(err)
		}
	}
	a, b := oracles[0].calls.Load(), oracles[1].calls.Load()
	if a+b != calls || a == 0 || b == 0 {
		t.Errorf("the Oracle replicas got %d and %d of %d calls; want every call, spread over both", a, b, calls)
	}
}
