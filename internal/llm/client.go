package llm

import (
	"fmt"
	"net/http"
	"strings"

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
	var key string
	if ep.APIKeyEnv != "" {
		if key = o.getenv(ep.APIKeyEnv); key == "" {
			return nil, &apperr.PreconditionError{Reason: fmt.Sprintf(
				"llm endpoint %q: environment variable %s is unset or empty; it must hold the API key", ep.Name, ep.APIKeyEnv)}
		}
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
