package planner

import (
	"context"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/metric"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
)

// Config is what the Planner needs from its process.
type Config struct {
	// Endpoints are the named endpoints requests may use.
	Endpoints map[string]llm.Endpoint
	// Cache stores model responses; nil turns caching off.
	Cache llm.Cache
	// Getenv reads API keys named by endpoints.
	Getenv func(string) string
	// Now is the clock.
	Now func() time.Time
	// InlineHosts are the hosts CreatePlan's inline endpoints may reach;
	// none (the default) turns inline endpoints off.
	InlineHosts []InlineHost
	// MeterProvider records the gateway's metrics (llm.WithMeterProvider);
	// nil records nothing.
	MeterProvider metric.MeterProvider
	// Drain, when it closes, makes the gateway send nothing more
	// (llm.WithDrain): a call waiting for a concurrency slot or for a
	// retry ends with llm.ErrNotSent (Canceled). A command's first
	// interrupt closes it; nil never drains.
	Drain <-chan struct{}
	// CacheStoreFailed reports a fresh model answer the cache could not
	// store (llm.WithCacheStoreFailed): the answer is used all the same,
	// and only a later identical call asks the model again. Nil logs a
	// warning with log/slog's default logger.
	CacheStoreFailed func(ctx context.Context, err error)
}

// GatewayOptions are the gateway options every model client of the
// process shares: its environment, clock, metrics, response cache and
// where a failure to store in it goes (not Drain, which each caller
// decides).
func (cfg Config) GatewayOptions() []llm.Option {
	opts := []llm.Option{llm.WithGetenv(cfg.Getenv), llm.WithClock(cfg.Now), llm.WithMeterProvider(cfg.MeterProvider), llm.WithCacheStoreFailed(cfg.CacheStoreFailed)}
	if cfg.Cache != nil {
		opts = append(opts, llm.WithCache(cfg.Cache))
	}
	return opts
}

// Service implements triagev1.PlannerServiceServer. It keeps one gateway
// client per endpoint, so an endpoint's concurrency limit holds across
// requests.
type Service struct {
	triagev1.UnimplementedPlannerServiceServer
	cfg     Config
	clients *llm.Clients
	// inline holds the clients of inline endpoints, which never follow a
	// redirect away from the host that was allowed.
	inline *llm.Clients
}

// New returns a Planner.
func New(cfg Config) *Service {
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	opts := append(cfg.GatewayOptions(), llm.WithDrain(cfg.Drain))
	inlineOpts := append(slices.Clone(opts), llm.WithHTTPClient(&http.Client{CheckRedirect: noRedirects}))
	return &Service{cfg: cfg, clients: llm.NewClients(opts...), inline: llm.NewClients(inlineOpts...)}
}

// LongRunning reports the methods that wait on a model (CreatePlan), which
// the server gives its long default deadline; see server.LongRunner.
func (s *Service) LongRunning(fullMethod string) bool {
	return fullMethod == triagev1.PlannerService_CreatePlan_FullMethodName
}

func (s *Service) endpointNames() string { return llm.DescribeNames(s.cfg.Endpoints) }

// client returns the gateway client of an endpoint, creating it once per
// distinct endpoint configuration.
func (s *Service) client(key string, ep llm.Endpoint) (*llm.Client, error) {
	if strings.HasPrefix(key, inlineKeyPrefix) {
		return s.inline.Get(key, ep)
	}
	return s.clients.Get(key, ep)
}
