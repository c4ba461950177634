package server

import (
	"crypto/tls"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/selector"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// guards are the interceptors that decide whether a call may run, in
// order: authentication (who calls, and may it call this service), the
// default deadline, the caller's rate limit, then its concurrency limit.
// Health checks pass none of them: probes need no token and are never
// limited.
type guards struct {
	unary  []grpc.UnaryServerInterceptor
	stream []grpc.StreamServerInterceptor
}

// newGuards builds the guards that cfg asks for.
func newGuards(cfg Config, services []Service) guards {
	var g guards
	add := func(u grpc.UnaryServerInterceptor, s grpc.StreamServerInterceptor) {
		g.unary = append(g.unary, selector.UnaryServerInterceptor(u, selector.MatchFunc(notHealth)))
		g.stream = append(g.stream, selector.StreamServerInterceptor(s, selector.MatchFunc(notHealth)))
	}
	if cfg.Tokens != nil {
		a := &authenticator{tokens: cfg.Tokens, services: map[string]string{}}
		for _, s := range services {
			a.services[s.Desc.ServiceName] = s.Name
		}
		add(a.interceptors())
	}
	if cfg.Deadlines != (Deadlines{}) {
		add(cfg.Deadlines.interceptors())
	}
	l := newLimiter(cfg.Limits)
	if cfg.Limits.Rate > 0 {
		add(l.rateInterceptors())
	}
	if cfg.Limits.MaxConcurrent > 0 {
		add(l.concurrencyInterceptors())
	}
	return g
}

// transportCredentials serves TLS when tlsCfg is set, plaintext otherwise.
func transportCredentials(tlsCfg *tls.Config) credentials.TransportCredentials {
	if tlsCfg == nil {
		return insecure.NewCredentials()
	}
	return credentials.NewTLS(tlsCfg)
}
