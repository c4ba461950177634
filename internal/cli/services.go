package cli

import (
	"fmt"
	"slices"
	"strings"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/server"
	"github.com/triage-eval/triage/services/oracle"
)

// availableServices lists every service this binary can serve, by the name
// operators pick it with.
func availableServices() map[string]func() server.Service {
	return map[string]func() server.Service{
		"oracle": func() server.Service {
			return server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()}
		},
	}
}

// selectServices builds the services named in a comma-separated list; an
// empty list means all of them.
func selectServices(list string) ([]server.Service, error) {
	avail := availableServices()
	names := make([]string, 0, len(avail))
	for name := range avail {
		names = append(names, name)
	}
	slices.Sort(names)
	if strings.TrimSpace(list) == "" {
		list = strings.Join(names, ",")
	}
	var out []server.Service
	seen := map[string]bool{}
	for _, raw := range strings.Split(list, ",") {
		name := strings.ToLower(strings.TrimSpace(raw))
		build, ok := avail[name]
		if !ok {
			return nil, fmt.Errorf("--services: unknown service %q (available: %s)", raw, strings.Join(names, ", "))
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, build())
		}
	}
	return out, nil
}
