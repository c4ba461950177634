package server

import (
	"crypto/tls"
	"log/slog"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/selector"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// guards are the interceptors that decide whether a call may run, in
// order: the default deadline, the caller's rate limit, then its
// concurrency limit. Who the caller is, and whether its token may call the
// service, the tap has decided on the call's headers (tap.go). Health
// checks pass no guard: probes need no token and are never limited.
type guards struct {
	unary  []grpc.UnaryServerInterceptor
	stream []grpc.StreamServerInterceptor
}

// newGuards builds the guards that cfg asks for; l keeps the callers'
// limits.
func newGuards(cfg Config, l *limiter) guards {
	var g guards
	add := func(u grpc.UnaryServerInterceptor, s grpc.StreamServerInterceptor) {
		g.unary = append(g.unary, selector.UnaryServerInterceptor(u, selector.MatchFunc(notHealth)))
		g.stream = append(g.stream, selector.StreamServerInterceptor(s, selector.MatchFunc(notHealth)))
	}
	if cfg.Deadlines.Default > 0 || cfg.Deadlines.Long > 0 {
		add(cfg.Deadlines.interceptors())
	}
	rates, slots := cfg.limitsSet()
	if rates {
		add(l.rateInterceptors())
	}
	if slots {
		add(l.concurrencyInterceptors())
	}
	return g
}

// limitsSet reports whether the server, or a token's own limits, set a
// rate and a concurrency limit.
func (cfg Config) limitsSet() (rates, slots bool) {
	rates, slots = cfg.Limits.Rate > 0, cfg.Limits.MaxConcurrent > 0
	if cfg.Tokens != nil {
		for _, e := range cfg.Tokens.entries {
			lim := e.limits.over(cfg.Limits)
			rates, slots = rates || lim.Rate > 0, slots || lim.MaxConcurrent > 0
		}
	}
	return rates, slots
}

// newAdmission builds the tap that cfg asks for, with the limiter l keeps
// callers' limits in when cfg sets any.
func newAdmission(cfg Config, services []Service, logger *slog.Logger) (*admission, *limiter) {
	a := &admission{idle: cfg.Deadlines.Idle, afterFunc: cfg.AfterFunc, refusals: newRefusalLog(logger, cfg.Now, cfg.AfterFunc)}
	if a.afterFunc == nil {
		a.afterFunc = realAfterFunc
	}
	if cfg.Tokens != nil {
		a.auth = &authenticator{tokens: cfg.Tokens, services: map[string]string{}}
		for _, s := range services {
			a.auth.services[s.Desc.ServiceName] = s.Name
		}
	}
	l := newLimiter(cfg.Limits)
	if rates, slots := cfg.limitsSet(); rates || slots {
		a.limiter = l
	}
	return a, l
}

// transportCredentials serves TLS when tlsCfg is set, plaintext otherwise.
func transportCredentials(tlsCfg *tls.Config) credentials.TransportCredentials {
	if tlsCfg == nil {
		return insecure.NewCredentials()
	}
	return credentials.NewTLS(tlsCfg)
}
