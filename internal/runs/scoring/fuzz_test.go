package scoring_test

import (
	"context"
	"errors"
	"testing"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/runs/scoring"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	scoringsvc "github.com/triage-eval/triage/services/scoring"
)

// FuzzScoreInput: any document either fails ParseInput with an
// *InputError, or is scored, or is rejected by the services with an
// *InputError; nothing else, and never a panic.
func FuzzScoreInput(f *testing.F) {
	for _, seed := range []string{
		`{"items":[{"id":"a","cost":10,"correct":true}],"alpha":0.5,"plan":[{"id":"a","tokens":5}]}`,
		`{"items":[{"id":"a","cost":10,"correct":true,"unsolvable":true},{"id":"b","cost":3}],"budget":7,"plan":[{"id":"b","tokens":3},{"id":"a","tokens":-1}],"random":{"method":"exact"}}`,
		`{"items":[],"budget":0,"plan":[]}`,
		`{"items":[{"id":"","cost":0}],"alpha":2,"plan":[{"id":"x","tokens":1}],"random":{"samples":-3}}`,
		`{"items":[{"id":"a","cost":"x"}]}`,
		`[1,2]`,
		``,
	} {
		f.Add([]byte(seed))
	}
	svc := scoringsvc.New(scoringsvc.LocalExecutor(executor.New(nil, time.Now)), scoringsvc.LocalOracle(oracle.NewService()), scoringsvc.Options{Workers: 2})
	conn := servertest.Start(f, nil, server.Service{Name: "scoring", Desc: &triagev1.ScoringService_ServiceDesc, Impl: svc})
	clients := triagev1.NewScoringServiceClient(conn)
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := scoring.ParseInput("fuzz.json", data)
		var inputErr *scoring.InputError
		if err != nil {
			if !errors.As(err, &inputErr) || len(inputErr.Problems) == 0 {
				t.Fatalf("ParseInput error is not an InputError: %v", err)
			}
			return
		}
		if in.Random != nil && int64(in.Random.Samples)*int64(len(in.Items)) > 1_000_000 {
			return // valid but slow
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // only catches a hang
		defer cancel()
		out, err := scoring.Score(ctx, clients, "fuzz.json", in)
		if err != nil {
			if !errors.As(err, &inputErr) {
				t.Fatalf("Score failed with a non-input error: %v", err)
			}
			return
		}
		for name, r := range out.Regimes {
			if r.Eta > 1+1e-9 || r.Value > out.OracleValue+1e-9 {
				t.Fatalf("regime %s: value %v, eta %v above the oracle %v", name, r.Value, r.Eta, out.OracleValue)
			}
			if r.Regret != nil && (*r.Regret < -1e-12 || *r.Regret > 1+1e-12) {
				t.Fatalf("regime %s: regret %v outside [0, 1]", name, *r.Regret)
			}
		}
	})
}
