package cli

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"slices"
	"strconv"

	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/services/planner"
)

// serveSecurity holds triage serve's flags for TLS, tokens and limits.
type serveSecurity struct {
	files    transport.ServerFiles
	insecure bool
	tokens   string
	rate     rateFlag
	inline   string
	// inlineHosts are the hosts --allow-inline-endpoints names.
	inlineHosts []planner.InlineHost
}

// addServeSecurityFlags registers the flags on fs; limits and deadlines are
// written straight into cfg, whose values are the defaults shown.
func addServeSecurityFlags(fs *flag.FlagSet, cfg *server.Config) *serveSecurity {
	s := &serveSecurity{}
	fs.StringVar(&s.files.Cert, "tls-cert", "", "PEM certificate chain to serve TLS with (with --tls-key)")
	fs.StringVar(&s.files.Key, "tls-key", "", "PEM private key of --tls-cert")
	fs.StringVar(&s.files.ClientCA, "tls-client-ca", "", "PEM CA(s) that client certificates must chain to; clients without one are refused (mutual TLS)")
	fs.BoolVar(&s.insecure, "insecure", false, "allow plaintext on an address other machines can reach (e.g. behind a TLS-terminating proxy)")
	fs.StringVar(&s.tokens, "auth-tokens", "", "file of accepted bearer tokens: one per line as SHA256-HEX SERVICES [NAME] [max_concurrent=N] [rate=R] [burst=B] (see docs/security.md)")
	fs.StringVar(&s.inline, "allow-inline-endpoints", "", "HOST[:PORT],… that CreatePlan's inline endpoints may reach (exact host match); default: inline endpoints off")
	s.rate = rateFlag{perSecond: &cfg.Limits.Rate}
	fs.Var(s.rate, "rate-limit", `calls each caller (a token; without --auth-tokens, a peer IP address) may start per second, e.g. "50/s", "600/m"; 0 for no limit`)
	fs.IntVar(&cfg.Limits.Burst, "burst", cfg.Limits.Burst, "calls a caller may start at once above --rate-limit (0: the rate, rounded up)")
	fs.IntVar(&cfg.Limits.MaxConcurrent, "max-concurrent", cfg.Limits.MaxConcurrent, "calls one caller may have running; more wait (up to 4 per slot); 0 for no limit")
	fs.DurationVar(&cfg.Deadlines.Default, "default-deadline", cfg.Deadlines.Default, "deadline of unary calls that come without one; 0 for none")
	fs.DurationVar(&cfg.Deadlines.Long, "long-call-deadline", cfg.Deadlines.Long, "deadline of streams (RunBaseline, ImportGroundTruth) and CreatePlan that come without one; 0 for none")
	fs.DurationVar(&cfg.Deadlines.Idle, "idle-timeout", cfg.Deadlines.Idle, "end a call whose client keeps the server waiting this long: a request or stream message that does not arrive (each message must arrive whole within it), an answer it does not read; 0 for no bound")
	return s
}

// configure loads the TLS files and the token file into cfg, and reads
// the inline endpoints' hosts.
func (s *serveSecurity) configure(cfg *server.Config) error {
	// The server refuses these too, in its own words; the flags are named
	// here, where their values came from.
	for _, f := range []struct {
		flag  string
		value int
	}{{"--burst", cfg.Limits.Burst}, {"--max-concurrent", cfg.Limits.MaxConcurrent}} {
		if f.value < 0 {
			return fmt.Errorf("%s: must be ≥ 0, got %d", f.flag, f.value)
		}
	}
	hosts, err := planner.ParseInlineHosts(s.inline)
	if err != nil {
		return fmt.Errorf("--allow-inline-endpoints: %w", err)
	}
	s.inlineHosts = hosts
	f := s.files
	switch {
	case f.Cert == "" && f.Key == "" && f.ClientCA != "":
		return errors.New("--tls-client-ca needs --tls-cert and --tls-key")
	case f.Cert != "" || f.Key != "":
		if s.insecure {
			return errors.New("--insecure serves plaintext; it cannot go with --tls-cert")
		}
		tlsCfg, err := transport.ServerConfig(f)
		if err != nil {
			return err
		}
		cfg.TLS = tlsCfg
	}
	if s.tokens != "" {
		tokens, err := server.LoadTokens(s.tokens, slices.Sorted(maps.Keys(availableServices())))
		if err != nil {
			return fmt.Errorf("--auth-tokens: %w", err)
		}
		cfg.Tokens = tokens
	}
	return nil
}

// checkListener refuses plaintext on a listener other machines can reach
// unless --insecure says so, and warns about what such a server exposes.
func (s *serveSecurity) checkListener(flagName string, lis net.Listener, cfg server.Config, logger *slog.Logger) error {
	addr := lis.Addr()
	if transport.IsLoopbackListener(addr) {
		return nil
	}
	if cfg.TLS == nil {
		if !s.insecure {
			return fmt.Errorf("%w: %s %s accepts connections from other machines: serve TLS (--tls-cert, --tls-key) or pass --insecure to serve plaintext anyway", ErrUsage, flagName, addr)
		}
		logger.Warn("serving plaintext on an address other machines can reach (--insecure): calls, results and tokens cross the network unencrypted", "addr", addr.String())
	}
	if cfg.Tokens == nil && s.files.ClientCA == "" {
		logger.Warn("no --auth-tokens and no --tls-client-ca: anyone who reaches this address can call every RPC", "addr", addr.String())
	}
	return nil
}

// rateFlag reads a rate such as "50/s", "600/m", "1000/h" or "12.5" (per
// second) into calls per second.
type rateFlag struct{ perSecond *float64 }

// String formats the rate per second.
func (r rateFlag) String() string {
	if r.perSecond == nil || *r.perSecond == 0 {
		return "0"
	}
	return strconv.FormatFloat(*r.perSecond, 'g', -1, 64) + "/s"
}

// Set parses a rate (server.ParseRate).
func (r rateFlag) Set(v string) error {
	n, err := server.ParseRate(v)
	if err != nil {
		return err
	}
	*r.perSecond = n
	return nil
}
