package cli

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/planner"
	"github.com/triage-eval/triage/services/scoring"
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
	// upstream is where the Scoring service reaches the Executor and the
	// Oracle: a remote service's client, or nil for this process's.
	upstream upstream
	// local holds the Oracle and the Executor this process builds, shared
	// by their own registration and the Scoring service's composition;
	// set by buildServices.
	local *localServices
}

// upstream is the Scoring service's remote Executor and Oracle; a nil one is
// composed in process.
type upstream struct {
	executor scoring.Executor
	oracle   scoring.Oracle
}

// localServices builds this process's Oracle and Executor once each.
type localServices struct {
	oracle   func() *oracle.Service
	executor func() *executor.Service
}

// newLocalServices returns the builders of deps's in-process services.
func newLocalServices(d serviceDeps) *localServices {
	return &localServices{
		oracle: sync.OnceValue(oracle.NewService),
		executor: sync.OnceValue(func() *executor.Service {
			return executor.New(d.store, d.now, executor.WithBaseline(d.baseline))
		}),
	}
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
	// desc is the service's gRPC description: its full name is what a
	// server of it answers health checks for.
	desc *grpc.ServiceDesc
	// needsStore reports whether the service wants a ground-truth store;
	// nil means it does not.
	needsStore func(serviceDeps) bool
	// impl builds the service's implementation.
	impl func(serviceDeps) any
}

// build returns the service named name, built with d.
func (s serviceSpec) build(name string, d serviceDeps) server.Service {
	return server.Service{Name: name, Desc: s.desc, Impl: s.impl(d)}
}

// availableServices lists every service this binary can serve, by the name
// operators pick it with.
func availableServices() map[string]serviceSpec {
	return map[string]serviceSpec{
		"oracle":   {desc: &triagev1.OracleService_ServiceDesc, impl: func(d serviceDeps) any { return d.local.oracle() }},
		"planner":  {desc: &triagev1.PlannerService_ServiceDesc, impl: func(d serviceDeps) any { return planner.New(d.planner) }},
		"executor": {desc: &triagev1.ExecutorService_ServiceDesc, needsStore: always, impl: func(d serviceDeps) any { return d.local.executor() }},
		// The Scoring service composes the Executor and the Oracle: remote
		// ones when d.upstream names them, else this process's (the same
		// instances when they are served too), so it needs the store when
		// its Executor is local.
		"scoring": {
			desc:       &triagev1.ScoringService_ServiceDesc,
			needsStore: func(d serviceDeps) bool { return d.upstream.executor == nil },
			impl: func(d serviceDeps) any {
				exec, orc := d.upstream.executor, d.upstream.oracle
				if exec == nil {
					exec = scoring.LocalExecutor(d.local.executor())
				}
				if orc == nil {
					orc = scoring.LocalOracle(d.local.oracle())
				}
				return scoring.New(exec, orc, scoring.Options{Workers: runtime.GOMAXPROCS(0), CacheEntries: scoring.DefaultCacheEntries})
			},
		},
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

// always is a needsStore for the services that always want a store.
func always(serviceDeps) bool { return true }

// needStore reports whether any of the named services wants a store.
func needStore(names []string, deps serviceDeps) bool {
	avail := availableServices()
	return slices.ContainsFunc(names, func(n string) bool {
		f := avail[n].needsStore
		return f != nil && f(deps)
	})
}

// buildServices builds the named services; the Oracle and the Executor are
// built at most once, whether served, composed by the Scoring service, or
// both.
func buildServices(names []string, deps serviceDeps) []server.Service {
	avail := availableServices()
	deps.local = newLocalServices(deps)
	out := make([]server.Service, len(names))
	for i, n := range names {
		out[i] = avail[n].build(n, deps)
	}
	return out
}
