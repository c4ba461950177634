package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/planner"
)

// serviceDeps is what services may need from the process.
type serviceDeps struct {
	// store is the ground-truth store, nil if none was opened.
	store groundtruth.Store
	// planner configures the Planner (endpoints, response cache).
	planner planner.Config
	// baseline lets the Executor run Phase 0; nil when no endpoints are
	// configured.
	baseline *executor.Baseline
	// now is the clock.
	now func() time.Time
	// tel instruments the clients and the services; nil means disabled.
	tel *telemetry.Telemetry
}

// telemetry returns the instrumentation of the process.
func (d serviceDeps) telemetry() *telemetry.Telemetry {
	if d.tel == nil {
		return telemetry.Disabled()
	}
	return d.tel
}

// serviceSpec describes one service this binary can serve.
type serviceSpec struct {
	// needsStore reports that the service wants a ground-truth store.
	needsStore bool
	build      func(serviceDeps) server.Service
}

// availableServices lists every service this binary can serve, by the name
// operators pick it with.
func availableServices() map[string]serviceSpec {
	return map[string]serviceSpec{
		"oracle": {build: func(serviceDeps) server.Service {
			return server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()}
		}},
		"planner": {build: func(d serviceDeps) server.Service {
			return server.Service{Name: "planner", Desc: &triagev1.PlannerService_ServiceDesc, Impl: planner.New(d.planner)}
		}},
		"executor": {needsStore: true, build: func(d serviceDeps) server.Service {
			return server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(d.store, d.now, executor.WithBaseline(d.baseline))}
		}},
	}
}

// serviceNames returns the names in a comma-separated list, checked and
// deduplicated; an empty list means all services.
func serviceNames(list string) ([]string, error) {
	avail := availableServices()
	all := make([]string, 0, len(avail))
	for name := range avail {
		all = append(all, name)
	}
	slices.Sort(all)
	if strings.TrimSpace(list) == "" {
		return all, nil
	}
	var out []string
	for _, raw := range strings.Split(list, ",") {
		name := strings.ToLower(strings.TrimSpace(raw))
		if _, ok := avail[name]; !ok {
			return nil, fmt.Errorf("--services: unknown service %q (available: %s)", raw, strings.Join(all, ", "))
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// needStore reports whether any of the named services wants a store.
func needStore(names []string) bool {
	avail := availableServices()
	return slices.ContainsFunc(names, func(n string) bool { return avail[n].needsStore })
}

// buildServices builds the named services.
func buildServices(names []string, deps serviceDeps) []server.Service {
	avail := availableServices()
	out := make([]server.Service, len(names))
	for i, n := range names {
		out[i] = avail[n].build(deps)
	}
	return out
}
