package planner

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
)

// Inline endpoints are off unless the operator names the hosts they may
// reach (Config.InlineHosts): a caller-given URL is a request the server
// makes on the caller's behalf, into whatever network the server sits in.
const (
	// MaxInlineTimeout bounds an inline endpoint's timeout, which bounds
	// the whole model call (every attempt and wait), not one attempt.
	MaxInlineTimeout = 5 * time.Minute
	// DefaultInlineTimeout is an inline endpoint's timeout when unset.
	DefaultInlineTimeout = MaxInlineTimeout
)

// InlineHost is one host inline endpoints may reach: a host name or IP, and
// a port ("" for any).
type InlineHost struct {
	Host, Port string
}

// String formats the entry as it is written.
func (h InlineHost) String() string {
	if h.Port == "" {
		return h.Host
	}
	return net.JoinHostPort(h.Host, h.Port)
}

// ParseInlineHosts reads a comma-separated list of HOST[:PORT] entries
// ("127.0.0.1:8000,vllm.internal,[::1]:11434"). Hosts compare exactly,
// case-insensitively, with the host of an inline endpoint's URL: no
// wildcard, no resolution.
func ParseInlineHosts(list string) ([]InlineHost, error) {
	var out []InlineHost
	for _, raw := range strings.Split(list, ",") {
		entry := strings.TrimSpace(raw)
		if entry == "" {
			continue
		}
		h := InlineHost{Host: entry}
		if host, port, err := net.SplitHostPort(entry); err == nil {
			h = InlineHost{Host: host, Port: port}
		} else if strings.Count(entry, ":") == 1 {
			return nil, fmt.Errorf("bad entry %q: want HOST or HOST:PORT (IPv6 in brackets)", entry)
		}
		h.Host = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h.Host, "["), "]"))
		if h.Host == "" || strings.ContainsAny(h.Host, "/@?#*") {
			return nil, fmt.Errorf("bad entry %q: want HOST or HOST:PORT", entry)
		}
		if h.Port != "" {
			if n, err := parsePort(h.Port); err != nil || n == 0 {
				return nil, fmt.Errorf("bad entry %q: the port must be a number in 1..65535", entry)
			}
		}
		out = append(out, h)
	}
	return out, nil
}

// parsePort reads a decimal port number.
func parsePort(p string) (int, error) {
	n, err := strconv.Atoi(p)
	if err != nil || n < 0 || n > 65535 || strconv.Itoa(n) != p {
		return 0, fmt.Errorf("bad port %q", p)
	}
	return n, nil
}

// allowedInline reports whether u may be called: an http or https URL
// without credentials whose host (and port, default 80 or 443) an entry of
// hosts names.
func allowedInline(u *url.URL, hosts []InlineHost) bool {
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	for _, h := range hosts {
		if h.Host == host && (h.Port == "" || h.Port == port) {
			return true
		}
	}
	return false
}

// validateInline checks an inline endpoint against the allowed hosts.
func (s *Service) validateInline(v *apperr.Violations, e *triagev1.LLMEndpoint) {
	u, err := url.Parse(e.GetBaseUrl())
	switch {
	case len(s.cfg.InlineHosts) == 0:
		v.Add("inline_endpoint", "inline endpoints are off on this server; use a configured endpoint (endpoint_name), or ask the operator to allow the host (triage serve --allow-inline-endpoints)")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		v.Add("inline_endpoint.base_url", "must be an http or https URL")
	case u.User != nil:
		v.Add("inline_endpoint.base_url", "must not carry credentials")
	case !allowedInline(u, s.cfg.InlineHosts):
		v.Add("inline_endpoint.base_url", "host %q is not allowed for inline endpoints on this server", u.Host)
	}
	if e.GetModel() == "" {
		v.Add("inline_endpoint.model", "must not be empty")
	}
	if e.GetMode() != triagev1.SolverMode_SOLVER_MODE_STANDARD && e.GetMode() != triagev1.SolverMode_SOLVER_MODE_EXTENDED {
		v.Add("inline_endpoint.mode", "must be SOLVER_MODE_STANDARD or SOLVER_MODE_EXTENDED")
	}
	if e.GetMaxOutputTokens() < 0 {
		v.Add("inline_endpoint.max_output_tokens", "must be ≥ 0")
	}
	if e.GetTimeout() != nil {
		if d := e.GetTimeout().AsDuration(); d <= 0 || d > MaxInlineTimeout {
			v.Add("inline_endpoint.timeout", "must be in (0, %s]: it bounds the whole call, every attempt included", MaxInlineTimeout)
		}
	}
}

// noRedirects keeps an inline endpoint's calls on the host that was
// allowed: a redirect is answered as the response it is.
var noRedirects = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
