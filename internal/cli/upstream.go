package cli

import (
	"flag"
	"fmt"
	"google.golang.org/grpc/status"
	"log/slog"
	"os"
	"slices"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/services/scoring"
)

// upstreamFlags are triage serve's flags for the services the Scoring
// service calls when they are not served in the same process.
type upstreamFlags struct {
	executorAddr, oracleAddr string
	ca, tokenFile            string
	plaintextToken           bool
	// readyWait bounds a call's wait for an upstream's connection
	// (upstreamInterceptor); upstreamReadyWait unless a test sets it.
	readyWait time.Duration
	// maxMessageBytes is the largest message sent to or taken from an
	// upstream: the server's --max-message-bytes (grpc's default, 4 MiB
	// received, when 0).
	maxMessageBytes int
	// logger, when set, takes why an upstream could not be reached
	// (unreachableLog).
	logger *slog.Logger
}

// unreachableLog returns the func that logs why calls found no connection
// to the upstream service name at addr — the transport's error, which
// their callers are not told — at most once per upstreamReadyWait, so that
// a misconfigured upstream (a wrong --upstream-ca, plaintext to a TLS
// server) is named in the log and a down one costs a line, not one a call.
func (u *upstreamFlags) unreachableLog(name, addr string) func(error) {
	if u.logger == nil {
		return nil
	}
	var last atomic.Int64 // UnixNano of the last line
	return func(cause error) {
		now := time.Now().UnixNano()
		if prev := last.Load(); prev != 0 && now-prev < int64(upstreamReadyWait) || !last.CompareAndSwap(prev, now) {
			return
		}
		u.logger.Warn("upstream unreachable: its calls fail Unavailable", "service", name, "addr", addr, "cause", status.Convert(cause).Message())
	}
}

// addUpstreamFlags registers the upstream flags on fs.
func addUpstreamFlags(fs *flag.FlagSet) *upstreamFlags {
	u := &upstreamFlags{readyWait: upstreamReadyWait}
	fs.StringVar(&u.executorAddr, "executor-addr", "", "the Executor the scoring service calls (host:port); empty: the one of this process")
	fs.StringVar(&u.oracleAddr, "oracle-addr", "", "the Oracle the scoring service calls (host:port); empty: the one of this process")
	fs.StringVar(&u.ca, "upstream-ca", "", "PEM file of the CA(s) the certificates of --executor-addr and --oracle-addr must chain to (TLS); empty: plaintext")
	fs.StringVar(&u.tokenFile, "upstream-token-file", "", "file holding the bearer token sent to --executor-addr and --oracle-addr")
	fs.BoolVar(&u.plaintextToken, "upstream-plaintext-token", false, "send --upstream-token-file's token without TLS to upstreams that are not on loopback (refused otherwise): only on a network trusted to carry it, e.g. a cluster's behind NetworkPolicies")
	return u
}

// dial connects the Scoring service among names to the upstream services
// the flags name; closeAll closes the connections. A flag naming a service
// this process serves, or given without the Scoring service, is a usage
// error.
func (u *upstreamFlags) dial(names []string, tel *telemetry.Telemetry) (up upstream, closeAll func(), err error) {
	var conns []*grpc.ClientConn
	closeAll = func() {
		for _, c := range conns {
			_ = c.Close() // on the way out: nothing is written through it
		}
	}
	dial := &dialFlags{files: transport.ClientFiles{CA: u.ca}, tokenFile: u.tokenFile, tokenFileFlag: "--upstream-token-file", readSecret: os.ReadFile, plaintextToken: u.plaintextToken}
	if _, err := dial.bearerToken(); err != nil {
		return upstream{}, nil, err // about the file, whichever address it is for
	}
	for _, t := range []struct{ name, addr string }{{"executor", u.executorAddr}, {"oracle", u.oracleAddr}} {
		if t.addr == "" {
			continue
		}
		switch {
		case !slices.Contains(names, "scoring"):
			err = fmt.Errorf("%w: --%s-addr is where the scoring service finds the %s, and scoring is not served", ErrUsage, t.name, t.name)
		case slices.Contains(names, t.name):
			err = fmt.Errorf("%w: --%s-addr: the %s is served by this process, which the scoring service then calls in process; drop one", ErrUsage, t.name, t.name)
		}
		if err != nil {
			closeAll()
			return upstream{}, nil, err
		}
		opts, err := dial.options(t.addr)
		if err != nil {
			closeAll()
			return upstream{}, nil, fmt.Errorf("--%s-addr %s: %w", t.name, t.addr, err)
		}
		// No wait for the service: calls wait for it (resilientOptions), a
		// while (upstreamInterceptor), so the services may start in any
		// order and restart one at a time.
		opts = append(opts, grpc.WithChainUnaryInterceptor(upstreamInterceptor(t.name, u.readyWait, u.unreachableLog(t.name, t.addr))))
		if u.maxMessageBytes > 0 {
			opts = append(opts, grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(u.maxMessageBytes), grpc.MaxCallSendMsgSize(u.maxMessageBytes)))
		}
		cc, err := grpc.NewClient(t.addr, append(append(resilientOptions(), serviceDeps{tel: tel}.telemetry().ClientOption()), opts...)...)
		if err != nil {
			closeAll()
			return upstream{}, nil, fmt.Errorf("--%s-addr %s: %w", t.name, t.addr, err)
		}
		conns = append(conns, cc)
		if t.name == "executor" {
			up.executor = scoring.RemoteExecutor(triagev1.NewExecutorServiceClient(cc))
		} else {
			up.oracle = scoring.RemoteOracle(triagev1.NewOracleServiceClient(cc))
		}
	}
	if (u.ca != "" || u.tokenFile != "") && len(conns) == 0 {
		closeAll()
		return upstream{}, nil, fmt.Errorf("%w: --upstream-ca and --upstream-token-file apply to --executor-addr and --oracle-addr, and neither is given", ErrUsage)
	}
	return up, closeAll, nil
}
