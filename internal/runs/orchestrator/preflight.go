package orchestrator

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// PreflightError lists everything that stops a run before its first model
// call: services that do not answer, solvers whose endpoint the Planner does
// not know, (solver, dataset) pairs without gradeable ground truth.
type PreflightError struct {
	// Problems are one sentence each, in the order found.
	Problems []string
}

func (e *PreflightError) Error() string {
	return fmt.Sprintf("the run cannot start (%d problem(s), nothing was sent to any model):\n  - %s",
		len(e.Problems), strings.Join(e.Problems, "\n  - "))
}

// checkServices calls each service once, cheaply, and returns a sentence
// per service that does not answer.
func (r *Runner) checkServices(ctx context.Context) []string {
	var out []string
	fail := func(service string, err error) {
		out = append(out, fmt.Sprintf("%s service: %s", service, describeCallError(err)))
	}
	if _, err := r.clients.Oracle.ComputeReferences(ctx, &triagev1.ComputeReferencesRequest{
		Items:   []*triagev1.GroundTruthItem{{Id: "preflight", Cost: 1, Correct: true}},
		Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 1}}},
		Random:  &triagev1.RandomReferenceOptions{Samples: 1},
	}); err != nil {
		fail("oracle", err)
	}
	if _, err := r.clients.Executor.ListGroundTruth(ctx, &triagev1.ListGroundTruthRequest{PageSize: 1}); err != nil {
		fail("executor", err)
	}
	if _, err := r.clients.Planner.ListEndpoints(ctx, &triagev1.ListEndpointsRequest{}); err != nil {
		fail("planner", err)
	}
	return out
}

// checkEndpoints asks the Planner for its endpoints when the llm strategy
// is configured, and returns them by name with a sentence per solver whose
// endpoint is missing or plays another mode.
func (r *Runner) checkEndpoints(ctx context.Context) (map[string]EndpointInfo, []string, error) {
	if !slices.Contains(r.cfg.Strategies, StrategyLLM) {
		return nil, nil, nil
	}
	resp, err := r.clients.Planner.ListEndpoints(ctx, &triagev1.ListEndpointsRequest{})
	if err != nil {
		return nil, nil, fmt.Errorf("planner service: list endpoints: %w", err)
	}
	known := map[string]EndpointInfo{}
	for _, ep := range resp.GetEndpoints() {
		known[ep.GetName()] = EndpointInfo{Name: ep.GetName(), Model: ep.GetModel(), Mode: modeName(ep.GetMode()), Settings: ep.GetSettingsSha256()}
	}
	names := slices.Sorted(maps.Keys(known))
	var problems []string
	for i, s := range r.cfg.Solvers {
		ep, ok := known[s.Endpoint]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("solvers[%d] (%s/%s): endpoint %q is not one the planner knows (it has %q)", i, s.Model, s.Mode, s.Endpoint, names))
		case ep.Mode != s.Mode:
			problems = append(problems, fmt.Sprintf("solvers[%d] (%s/%s): endpoint %q runs mode %s, not %s", i, s.Model, s.Mode, s.Endpoint, ep.Mode, s.Mode))
		}
	}
	return known, problems, nil
}

// modeName is the config's name of a solver mode.
func modeName(m triagev1.SolverMode) string {
	if m == triagev1.SolverMode_SOLVER_MODE_EXTENDED {
		return "extended"
	}
	return "standard"
}

// describeCallError is a gRPC error as one readable phrase: its code and
// message.
func describeCallError(err error) string {
	if s, ok := status.FromError(err); ok {
		return fmt.Sprintf("%s: %s", s.Code(), s.Message())
	}
	return err.Error()
}
