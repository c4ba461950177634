package server_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/inproc"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/scoring"
)

// Every response of every service, unary or streamed, carries the
// server's version stamp; nested results do not.
func TestResponsesAreStamped(t *testing.T) {
	stamp := version.Stamp{Protocol: version.Protocol, SpecRevision: version.SpecRevision, BinaryVersion: "v9.9.9", VCSRevision: "abc+modified"}
	want := &triagev1.VersionStamp{Protocol: "triage.v1", SpecRevision: version.SpecRevision, BinaryVersion: "v9.9.9", VcsRevision: "abc+modified"}
	cfg := server.DefaultConfig()
	cfg.Version = stamp
	exec, orc := executor.New(nil, time.Now), oracle.NewService()
	conn, err := inproc.Start(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), telemetry.Disabled(), []server.Service{
		{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: orc},
		{Name: "scoring", Desc: &triagev1.ScoringService_ServiceDesc, Impl: scoring.New(scoring.LocalExecutor(exec), scoring.LocalOracle(orc), scoring.Options{Workers: 1})},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	items := []*triagev1.GroundTruthItem{{Id: "a", Cost: 10, Correct: true}}
	budgets := []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 1}}}

	refs, err := triagev1.NewOracleServiceClient(conn).ComputeReferences(ctx, &triagev1.ComputeReferencesRequest{Items: items, Budgets: budgets})
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(refs.GetVersion(), want) {
		t.Errorf("unary response stamped %v, want %v", refs.GetVersion(), want)
	}
	req := &triagev1.ScorePlanRequest{Pool: &triagev1.ScorePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: items}}, Budgets: budgets}
	stream, err := triagev1.NewScoringServiceClient(conn).ScorePlans(ctx, &triagev1.ScorePlansRequest{Requests: []*triagev1.ScorePlanRequest{req, req}})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; ; n++ {
		resp, err := stream.Recv()
		if err == io.EOF {
			if n != 2 {
				t.Errorf("%d streamed responses, want 2", n)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(resp.GetVersion(), want) || resp.GetResult().GetVersion() != nil {
			t.Errorf("streamed response stamped %v (its result %v), want %v (and none)", resp.GetVersion(), resp.GetResult().GetVersion(), want)
		}
	}
}

// A server configured without a stamp stamps the running binary's.
func TestDefaultStampIsTheBinarys(t *testing.T) {
	conn, err := inproc.Start(server.DefaultConfig(), slog.New(slog.NewTextHandler(io.Discard, nil)), telemetry.Disabled(), []server.Service{
		{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	refs, err := triagev1.NewOracleServiceClient(conn).ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{
		Items: []*triagev1.GroundTruthItem{{Id: "a", Cost: 10}}, Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Tokens{Tokens: 5}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cur := version.Current().Stamp()
	if v := refs.GetVersion(); v.GetProtocol() != "triage.v1" || v.GetSpecRevision() != version.SpecRevision || v.GetBinaryVersion() != cur.BinaryVersion || v.GetVcsRevision() != cur.VCSRevision {
		t.Errorf("stamp %v, want the binary's %+v", v, cur)
	}
}

// Every error carries the server's version stamp too, as a status detail:
// one the tap refuses (no token), one validation refuses, one a stream's
// handler returns (a batch too large) and a panic's Internal; none did.
func TestErrorsAreStamped(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Version = version.Stamp{Protocol: version.Protocol, SpecRevision: version.SpecRevision, BinaryVersion: "v9.9.9", VCSRevision: "abc"}
	cfg.Tokens = tokenTable(t)
	_, svc := newProbe()
	orc := oracle.NewService()
	conn := dial(t, serve(t, cfg, nil, nil, svc,
		server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: orc},
		server.Service{Name: "scoring", Desc: &triagev1.ScoringService_ServiceDesc, Impl: scoring.New(scoring.LocalExecutor(executor.New(nil, time.Now)), scoring.LocalOracle(orc), scoring.Options{Workers: 1})}))
	ctx := bearer(context.Background(), allToken)
	stream := func() error {
		s, err := triagev1.NewScoringServiceClient(conn).ScorePlans(ctx, &triagev1.ScorePlansRequest{})
		if err != nil {
			return err
		}
		_, err = s.Recv()
		return err
	}
	for name, call := range map[string]func() error{
		"refused by the tap": func() error { _, err := call(context.Background(), conn, "hello"); return err },
		"invalid request": func() error {
			_, err := triagev1.NewOracleServiceClient(conn).ComputeReferences(ctx, &triagev1.ComputeReferencesRequest{})
			return err
		},
		"stream handler's error": stream,
		"panic":                  func() error { _, err := call(ctx, conn, "panic"); return err },
	} {
		err := call()
		st := status.Convert(err)
		if st.Code() == codes.OK {
			t.Fatalf("%s: no error", name)
		}
		stamped := false
		for _, d := range st.Details() {
			if v, ok := d.(*triagev1.VersionStamp); ok && v.GetBinaryVersion() == "v9.9.9" {
				stamped = true
			}
		}
		if !stamped {
			t.Errorf("%s: %v has no version stamp among its details %v", name, err, st.Details())
		}
	}
}
