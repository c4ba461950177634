package server

import (
	"context"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
)

// admission is the server's tap (grpc.InTapHandle): it runs on each call's
// headers, in the connection's reader, before grpc creates the call or
// reads any of its messages. So a call without a valid token costs its
// headers and nothing more: grpc answers the status and resets the stream,
// and the data the client still sends is dropped as it arrives, never
// buffered nor decoded. For an admitted call, it names the caller (limits
// count per caller), counts the call against the caller's limits — a
// caller with its most calls admitted already is refused here too — and
// starts the call's idle watch (idle.go).
type admission struct {
	auth      *authenticator // nil: no tokens
	limiter   *limiter       // nil: no limits
	idle      time.Duration  // 0: no idle bound
	afterFunc func(time.Duration, func()) func() bool
	refusals  *refusalLog
	stamp     *triagev1.VersionStamp // on every refusal (SPEC §10)
	// methods are the full method names the server serves, set once every
	// service is registered; a call of another is refused here, and
	// logged, where grpc would answer it without any interceptor seeing it.
	methods map[string]bool
}

// servedMethods returns the full method names ("/pkg.Service/Method") of
// every service g serves.
func servedMethods(g *grpc.Server) map[string]bool {
	out := map[string]bool{}
	for service, info := range g.GetServiceInfo() {
		for _, m := range info.Methods {
			out["/"+service+"/"+m.Name] = true
		}
	}
	return out
}

// unknownMethod is the status of a call of a method the server does not
// serve, in grpc's own words, so that a client sees what grpc would say.
func unknownMethod(fullMethod string, methods map[string]bool) error {
	service, method := splitMethod(fullMethod)
	for m := range methods {
		if strings.HasPrefix(m, "/"+service+"/") {
			return status.Errorf(codes.Unimplemented, "unknown method %s for service %s", method, service)
		}
	}
	return status.Errorf(codes.Unimplemented, "unknown service %s", service)
}

// admit is the tap.ServerInHandle. It must not block: it runs in the
// connection's reader.
func (a *admission) admit(ctx context.Context, info *tap.Info) (context.Context, error) {
	ctx, viaHTTP := withHTTPClientPeer(ctx, info.Header)
	protocol := "grpc"
	if viaHTTP {
		protocol = "http"
	}
	ctx, leave, err := a.enter(ctx, info.Header, info.FullMethodName, protocol, viaHTTP)
	if err != nil {
		return nil, err
	}
	if leave != nil {
		context.AfterFunc(ctx, leave)
	}
	if a.idle > 0 {
		ctx = watchIdle(ctx, a.idle, a.afterFunc)
	}
	return ctx, nil
}

// enter applies the token rule, then the caller's limit on calls admitted,
// to a call of fullMethod with metadata md, for the tap and for the
// HTTP/JSON gateway's requests (Server.Admit) alike. It returns ctx naming
// the caller and its limits, and the func to call once when the call ends
// (nil when nothing was counted); or the refusal, logged as protocol's.
// A call forwarded by the gateway (forwarded) was counted when the gateway
// admitted its request, which ends after the call: it takes its caller's
// limits without counting again; one whose caller has no call held (a
// gateway that admits nothing) is counted as any other.
func (a *admission) enter(ctx context.Context, md metadata.MD, fullMethod, protocol string, forwarded bool) (context.Context, func(), error) {
	refuse := func(err error) (context.Context, func(), error) {
		err = grpcerr.WithDetail(grpcerr.ToStatus(err), a.stamp)
		a.refusals.log(ctx, protocol, fullMethod, err)
		return nil, nil, err
	}
	caller, own := "", tokenLimits{}
	if a.auth != nil {
		entry, err := a.auth.authorize(md, fullMethod)
		if err != nil {
			return refuse(err)
		}
		if entry != nil {
			caller, own = entry.name, entry.limits
		}
	}
	if a.methods != nil && !a.methods[fullMethod] {
		return refuse(unknownMethod(fullMethod, a.methods))
	}
	if a.limiter == nil || isOpenHealth(fullMethod) {
		if caller != "" {
			ctx = withCaller(ctx, caller)
		}
		return ctx, nil, nil
	}
	if caller == "" {
		caller = peerName(ctx, md)
	}
	ctx = withCaller(ctx, caller)
	if forwarded {
		if c := a.limiter.held(caller); c != nil {
			return withCallerLimits(ctx, c), nil, nil
		}
	}
	c, leave, err := a.limiter.enter(caller, own)
	if err != nil {
		return refuse(err)
	}
	return withCallerLimits(ctx, c), leave, nil
}
