package orchestrator_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// TestSettleJudgeWithoutAHold: a judge call the ledger held nothing for
// (a remote Executor grading with a judge the config does not name) is
// recorded at its endpoint's price; without a cap that is all, under one
// it is a *JudgeNotCappedError naming the judge, since the cap did not
// bound it. A cached verdict, which cost nothing, is neither.
func TestSettleJudgeWithoutAHold(t *testing.T) {
	price := &llm.Price{InputPerMTok: 1, OutputPerMTok: 10}
	endpoints := map[string]llm.Endpoint{
		"q":      {Name: "q", Price: price, MaxOutputTokens: 100},
		"remote": {Name: "remote", Price: price, MaxOutputTokens: 100},
	}
	call := &grading.JudgeCall{Endpoint: "remote", PromptTokens: 1000, OutputTokens: 100}
	for _, capped := range []bool{false, true} {
		t.Run(map[bool]string{false: "no cap", true: "capped"}[capped], func(t *testing.T) {
			ctx := context.Background()
			cfg := &orchestrator.Config{}
			if capped {
				c := 5.0
				cfg.Spend.CapUSD = &c
			}
			rs, err := runstore.Open(ctx, filepath.Join(t.TempDir(), "run.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer rs.Close()
			l, err := orchestrator.NewLedger(cfg, rs, endpoints, []string{"q"}, time.Now)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.SettleJudge(ctx, nil, orchestrator.SpendBaseline, "baseline|m|standard|d|p1", &grading.JudgeCall{Endpoint: "remote", Cached: true}); err != nil {
				t.Errorf("a cached verdict: %v", err)
			}
			err = l.SettleJudge(ctx, nil, orchestrator.SpendBaseline, "baseline|m|standard|d|p1", call)
			var notCapped *orchestrator.JudgeNotCappedError
			if got := errors.As(err, &notCapped); got != capped || (capped && (notCapped.Endpoint != "remote" || !strings.Contains(err.Error(), `name "remote"`))) {
				t.Errorf("SettleJudge = %v; want a JudgeNotCappedError only under a cap", err)
			}
			rows, err := rs.Spend(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if want := (runstore.SpendRow{Phase: orchestrator.SpendBaseline, Endpoint: "remote", Calls: 1, InputTokens: 1000, OutputTokens: 100, Dollars: price.Dollars(1000, 100)}); len(rows) != 1 || rows[0] != want {
				t.Errorf("spend %+v, want %+v", rows, want)
			}
		})
	}
}
