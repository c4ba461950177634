package planner

import (
	"slices"
	"strings"
	"sync"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/prompts"
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
}

// Service implements triagev1.PlannerServiceServer. It keeps one gateway
// client per endpoint, so an endpoint's concurrency limit holds across
// requests.
type Service struct {
	triagev1.UnimplementedPlannerServiceServer
	cfg     Config
	mu      sync.Mutex
	clients map[string]*llm.Client
}

// New returns a Planner.
func New(cfg Config) *Service {
	return &Service{cfg: cfg, clients: map[string]*llm.Client{}}
}

// variants maps the API's prompt variants to templates.
var variants = map[triagev1.PromptVariant]prompts.Variant{
	triagev1.PromptVariant_PROMPT_VARIANT_UNSPECIFIED: prompts.Default,
	triagev1.PromptVariant_PROMPT_VARIANT_DEFAULT:     prompts.Default,
	triagev1.PromptVariant_PROMPT_VARIANT_NEUTRAL:     prompts.Neutral,
	triagev1.PromptVariant_PROMPT_VARIANT_AGENT:       prompts.Agent,
	triagev1.PromptVariant_PROMPT_VARIANT_EXAM:        prompts.Exam,
}

func (s *Service) endpointNames() string {
	names := make([]string, 0, len(s.cfg.Endpoints))
	for n := range s.cfg.Endpoints {
		names = append(names, n)
	}
	if len(names) == 0 {
		return "none are configured"
	}
	slices.Sort(names)
	return "configured: " + strings.Join(names, ", ")
}

// client returns the gateway client of an endpoint, creating it once per
// distinct endpoint configuration.
func (s *Service) client(key string, ep llm.Endpoint) (*llm.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.clients[key]; ok {
		return c, nil
	}
	opts := []llm.Option{llm.WithGetenv(s.cfg.Getenv), llm.WithClock(s.cfg.Now)}
	if s.cfg.Cache != nil {
		opts = append(opts, llm.WithCache(s.cfg.Cache))
	}
	c, err := llm.New(ep, opts...)
	if err != nil {
		return nil, err
	}
	s.clients[key] = c
	return c, nil
}
