package llm

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	openai "github.com/sashabaranov/go-openai"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// Client calls one Endpoint. It is safe for concurrent use; at most
// Endpoint.Concurrency requests are in flight at once.
type Client struct {
	ep        Endpoint // defaults applied
	baseURL   string   // without trailing slash
	extraBody map[string]any
	api       *openai.Client
	http      *http.Client // api's, for the Batch API (batch_api.go)
	apiKey    string
	sem       semaphore
	backoff   backoff
	opts      options
	metrics   *metrics
	// unmeasured is set once an answer was left out of the cache for
	// reporting no output tokens (reported once, WithCacheStoreFailed).
	unmeasured atomic.Bool
}

// apiKey reads ep's API key with getenv: "" when ep names no variable, an
// *apperr.PreconditionError naming the variable when it is unset or empty.
func (ep Endpoint) apiKey(getenv func(string) string) (string, error) {
	if ep.APIKeyEnv == "" {
		return "", nil
	}
	if key := getenv(ep.APIKeyEnv); key != "" {
		return key, nil
	}
	return "", &apperr.PreconditionError{Reason: fmt.Sprintf(
		"llm endpoint %q: environment variable %s is unset or empty; it must hold the API key", ep.Name, ep.APIKeyEnv)}
}

// Unusable says why every call to ep fails before reaching the model in a
// process whose environment getenv reads — the variable that must hold its
// API key unset or empty — or "" when nothing does: what a run checks
// before its first call, rather than failing every call. The reason names
// no variable (a service tells its callers, not only its operator).
func (ep Endpoint) Unusable(getenv func(string) string) string {
	if _, err := ep.apiKey(getenv); err != nil {
		return "its API key is missing: the environment variable its api_key_env names is unset or empty where the planner runs"
	}
	return ""
}

// New validates ep (an *apperr.InvalidArgumentError lists every bad
// field), reads the API key from the variable ep.APIKeyEnv names (an
// *apperr.PreconditionError names the variable when it is unset or
// empty), and returns a Client for it.
func New(ep Endpoint, opts ...Option) (*Client, error) {
	if err := ep.Validate(); err != nil {
		return nil, err
	}
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	ep = ep.withDefaults()
	extra, err := normalizeObject(ep.ExtraBody)
	if err != nil {
		return nil, apperr.Invalid("extra_body", "cannot be encoded as JSON: %v", err)
	}
	key, err := ep.apiKey(o.getenv)
	if err != nil {
		return nil, err
	}
	c := &Client{
		ep:        ep,
		baseURL:   strings.TrimRight(ep.BaseURL, "/"),
		extraBody: extra,
		sem:       make(semaphore, ep.Concurrency),
		backoff:   backoff{base: o.backoff.base, max: o.backoff.max, rand: o.rand},
		opts:      o,
		metrics:   newMetrics(o.meter, ep.Name),
	}
	cfg := openai.DefaultConfig(key)
	cfg.BaseURL = c.baseURL
	c.http = wrapHTTPClient(o.httpClient, ep.Concurrency)
	c.apiKey = key
	cfg.HTTPClient = c.http
	c.api = openai.NewClientWithConfig(cfg)
	return c, nil
}

// Endpoint returns the client's endpoint with defaults applied.
func (c *Client) Endpoint() Endpoint { return c.ep }

// wrapHTTPClient returns a copy of hc (or of a client with a transport
// tuned for concurrency when hc is nil) whose transport is wrapped by the
// gateway's.
func wrapHTTPClient(hc *http.Client, concurrency int) *http.Client {
	var out http.Client
	if hc != nil {
		out = *hc
	}
	base := out.Transport
	switch {
	case hc == nil:
		base = newBaseTransport(concurrency)
	case base == nil:
		base = http.DefaultTransport
	}
	out.Transport = &transport{base: base}
	return &out
}
