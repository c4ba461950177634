package executor

import (
	"context"
	"maps"
	"slices"
	"sync"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/platform/apperr"
)

// MaxCheckedEndpoints bounds the names of one CheckEndpoints call: each is
// a model call on the server's keys.
const MaxCheckedEndpoints = 64

// CheckEndpoints probes each named baseline endpoint once (llm.Probe:
// a few output tokens, past the response cache), all at once, through the
// same clients RunBaseline uses, and says which answered and, for those
// that did not, why (llm.Describe: the provider's status and message, or
// why the connection failed; never the address).
func (s *Service) CheckEndpoints(ctx context.Context, req *triagev1.CheckEndpointsRequest) (*triagev1.CheckEndpointsResponse, error) {
	if s.baseline == nil {
		return nil, errNoBaseline
	}
	names := req.GetNames()
	var v apperr.Violations
	if len(names) > MaxCheckedEndpoints {
		v.Add("names", "at most %d names, got %d", MaxCheckedEndpoints, len(names))
	}
	seen := map[string]int{}
	for i, n := range names {
		if first, dup := seen[n]; dup {
			v.Add("names", "names[%d] repeats names[%d] %q", i, first, n)
		}
		seen[n] = i
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	resp := &triagev1.CheckEndpointsResponse{
		Checks:     make([]*triagev1.EndpointCheck, len(names)),
		Configured: slices.Sorted(maps.Keys(s.baseline.Endpoints)),
	}
	var wg sync.WaitGroup
	for i, name := range names {
		check := &triagev1.EndpointCheck{Name: name}
		resp.Checks[i] = check
		ep, ok := s.baseline.Endpoints[name]
		if !ok {
			continue
		}
		check.Configured, check.Model, check.Mode = true, ep.Model, modeOf(ep.Mode)
		client, err := s.baseline.Clients.Get("baseline/"+name, ep)
		if err != nil {
			check.Reason = err.Error() // the client cannot be made: its key variable is unset…
			continue
		}
		wg.Go(func() {
			if err := client.Probe(ctx); err != nil {
				check.Reason = llm.Describe(err)
				return
			}
			check.Answered = true
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return resp, nil
}

// modeOf is the API's mode of an endpoint's mode name.
func modeOf(mode string) triagev1.SolverMode {
	for m, name := range modeNames {
		if name == mode {
			return m
		}
	}
	return triagev1.SolverMode_SOLVER_MODE_STANDARD // an endpoint's mode defaults to standard
}
