package cli

import (
	"slices"
	"time"

	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// spendLedger is the spend ledger of cfg's run over rs: prices and output
// bounds from the config's endpoints file, checked (with a cap) for the
// endpoints used.
func spendLedger(cfg *orchestrator.Config, rs runstore.Store, used []string) (*orchestrator.Ledger, error) {
	eps, err := configSources(cfg).endpointsFile()
	if err != nil {
		return nil, err
	}
	return orchestrator.NewLedger(cfg, rs, eps, used, time.Now)
}

// solverEndpoints are the endpoints that play cfg's solvers, each once.
func solverEndpoints(cfg *orchestrator.Config) []string {
	var out []string
	for _, s := range cfg.Solvers {
		if s.Endpoint != "" && !slices.Contains(out, s.Endpoint) {
			out = append(out, s.Endpoint)
		}
	}
	return out
}

// gradingEndpoints are the endpoints a command that solves and grades
// calls: cfg's solvers' and its grading judge's (baseline.judge_endpoint),
// each once.
func gradingEndpoints(cfg *orchestrator.Config) []string {
	out := solverEndpoints(cfg)
	if j := cfg.Baseline.JudgeEndpoint; j != "" && !slices.Contains(out, j) {
		out = append(out, j)
	}
	return out
}
