package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
)

// upstreamReadyWait is how long a call of the Scoring service to an
// upstream service waits for a connection to it when there is none: long
// enough to ride through the upstream's rolling restart, short enough that
// the Scoring service's caller learns promptly that it is down, instead of
// waiting out its deadline (calls wait for ready, resilientOptions).
const upstreamReadyWait = 10 * time.Second

// upstreamInterceptor bounds the wait of each call to the upstream service
// name for a connection to wait, and answers an upstream that cannot be
// reached, or whose transport failed the call, with Unavailable naming the
// service, never its address (which the Scoring service's callers,
// outside the deployment, have no use for). When no connection came
// within wait, the call is tried once without waiting: it goes through if
// one has come since, and otherwise fails with the transport's own error
// (a refused connection, a TLS handshake's certificate error), which
// unreachable, when set, is given for the operator's log. The first time
// the connection fails while it waits, the call is tried too: a failure no
// wait can cure (misconfigured: a certificate that does not verify, TLS
// the two ends disagree on) is answered at once as this service's
// mis-configuration, which its callers do not retry.
func upstreamInterceptor(name string, wait time.Duration, unreachable func(cause error)) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		var trailer metadata.MD
		call := func(more ...grpc.CallOption) error {
			return invoker(ctx, method, req, reply, cc, append(append(opts, grpc.Trailer(&trailer)), more...)...)
		}
		bounded, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		probe := true
		for {
			err := awaitReady(bounded, cc, probe)
			if err == nil {
				return upstreamAnswer(ctx, name, call(), trailer)
			}
			if ctx.Err() != nil {
				return status.FromContextError(ctx.Err()).Err()
			}
			err = call(grpc.WaitForReady(false))
			if st := status.Convert(err); st.Code() != codes.Unavailable || ctx.Err() != nil {
				return upstreamAnswer(ctx, name, err, trailer)
			} else if misconfigured(st.Message()) {
				if unreachable != nil {
					unreachable(err)
				}
				return status.Errorf(codes.Internal, "this service is mis-configured: its connection to the %s service fails in a way no retry cures (its --upstream-ca, or the TLS of its --%s-addr; the log says why)", name, name)
			}
			if probe {
				probe = false // failing for now: wait out the rest
				continue
			}
			if unreachable != nil {
				unreachable(err)
			}
			return status.Errorf(codes.Unavailable, "the %s service is unreachable: no connection to it within %v; retry later", name, wait)
		}
	}
}

// upstreamAnswer is what the caller gets of err, the answer of the
// upstream service name to a call that reached it (trailer its trailer).
func upstreamAnswer(ctx context.Context, name string, err error, trailer metadata.MD) error {
	if st := status.Convert(err); st.Code() == codes.Unimplemented && strings.HasPrefix(st.Message(), "unknown service") {
		// The address reaches a server of another service: a deployment
		// to fix, not a call to retry.
		return status.Errorf(codes.Internal, "this service is mis-configured: its --%[1]s-addr reaches a server that does not serve the %[1]s service (%[2]s)", name, st.Message())
	}
	if c := status.Code(err); c == codes.Unauthenticated || c == codes.PermissionDenied {
		// The upstream refused this service's own token (the caller's
		// never goes upstream): passed on as it came, it told the
		// caller that its token was refused, and named this one.
		return status.Errorf(codes.Internal, "this service is mis-configured: the server at its --%[1]s-addr refused its --upstream-token-file token (%[2]s): the token is missing or unknown there, does not grant %[1]s, or the address is another service's", name, c)
	}
	if after, limited := grpcerr.RetryDelay(err); limited && status.Code(err) == codes.ResourceExhausted {
		// The upstream's limits on this service's token, which every
		// caller of this service shares (a token file's max_concurrent
		// and rate give it room): passed on as it came, it told the
		// caller that its own calls were over a limit.
		return grpcerr.ToStatus(&apperr.ResourceExhaustedError{
			Reason:     fmt.Sprintf("the %s service is busy: this service's calls to it are at the limits it sets them; retry in %s", name, after.Round(time.Millisecond)),
			RetryAfter: after,
		})
	}
	if status.Code(err) == codes.Unavailable && ctx.Err() == nil && len(trailer.Get(grpcerr.RetryPushbackKey)) == 0 {
		// The transport's, not the service's own answer (which carries
		// its retry pushback, and is passed on as it is).
		return status.Errorf(codes.Unavailable, "the %s service is unavailable; retry later", name)
	}
	return err
}

// errNotReady is awaitReady's error when ctx ends first, or when the
// connection fails and it was asked to say so.
var errNotReady = errors.New("no connection")

// awaitReady returns once cc is connected, or errNotReady when ctx ends
// first or, with onFailure, as soon as the connection fails.
func awaitReady(ctx context.Context, cc *grpc.ClientConn, onFailure bool) error {
	for {
		s := cc.GetState()
		switch s {
		case connectivity.Ready:
			return nil
		case connectivity.Idle:
			cc.Connect()
		case connectivity.TransientFailure:
			if onFailure {
				return errNotReady
			}
		case connectivity.Shutdown:
			return errNotReady
		}
		if !cc.WaitForStateChange(ctx, s) {
			return errNotReady
		}
	}
}
