package planner

import (
	"context"
	"maps"
	"math"
	"slices"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
)

// ListEndpoints lists the configured endpoints, sorted by name: model, mode,
// family and output limit. It leaves out the base URL and the API key's
// environment variable (and so, certainly, the key). Its header says that
// CreatePlan announces its dispatched model calls (plancall.AnnouncesDispatchHeader).
func (s *Service) ListEndpoints(ctx context.Context, _ *triagev1.ListEndpointsRequest) (*triagev1.ListEndpointsResponse, error) {
	announceDispatchHeader(ctx)
	names := slices.Sorted(maps.Keys(s.cfg.Endpoints))
	out := &triagev1.ListEndpointsResponse{Endpoints: make([]*triagev1.ConfiguredEndpoint, len(names))}
	for i, name := range names {
		out.Endpoints[i] = configured(name, s.cfg.Endpoints[name])
		out.Endpoints[i].Unusable = s.cfg.Endpoints[name].Unusable(s.cfg.Getenv)
	}
	return out, nil
}

// configured describes one endpoint for ListEndpoints.
func configured(name string, ep llm.Endpoint) *triagev1.ConfiguredEndpoint {
	mode := triagev1.SolverMode_SOLVER_MODE_STANDARD
	if ep.Mode == llm.ModeExtended {
		mode = triagev1.SolverMode_SOLVER_MODE_EXTENDED
	}
	family := ep.Family
	if family == "" {
		family = llm.FamilyGeneric
	}
	return &triagev1.ConfiguredEndpoint{
		Name:            name,
		Model:           ep.Model,
		Mode:            mode,
		Family:          family,
		MaxOutputTokens: int32(min(ep.MaxOutputTokens, math.MaxInt32)),
		SettingsSha256:  ep.SettingsSHA256(),
	}
}
