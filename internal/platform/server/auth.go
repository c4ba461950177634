package server

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	reflectionv1 "google.golang.org/grpc/reflection/grpc_reflection_v1"
	reflectionv1alpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
)

// callerKey is the context key of the caller's name.
type callerKey struct{}

// withCaller returns ctx naming the caller; limits are kept per caller.
func withCaller(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, callerKey{}, name)
}

// Caller returns the name of the caller of the call ctx belongs to: the
// name of its token (the token file's third field, or FILE:LINE), or, on a
// server without tokens, its peer (see peerName: "peer 192.0.2.7"). It
// never returns the token. Health checks have no caller ("").
func Caller(ctx context.Context) string {
	name, _ := ctx.Value(callerKey{}).(string)
	return name
}

// authenticator checks bearer tokens against a token table and the service
// each token may call: the one home of the token rule, applied to a call's
// headers before anything else of it is read (tap.go), and to the HTTP/JSON
// gateway's requests before their bodies are (Server.Admit).
type authenticator struct {
	tokens *Tokens
	// services maps a gRPC service name ("triage.v1.OracleService") to the
	// short name tokens grant ("oracle").
	services map[string]string
}

// reflectionServices may be called with any valid token: they describe the
// API, and reflection follows the tokens so anonymous callers learn nothing.
var reflectionServices = map[string]bool{
	reflectionv1.ServerReflection_ServiceDesc.ServiceName:      true,
	reflectionv1alpha.ServerReflection_ServiceDesc.ServiceName: true,
}

// isOpenHealth reports whether fullMethod is a health check every caller
// may make without a token and outside its limits: the unary Check and
// List that probes send (the kubelet's gRPC probe, grpc_health_probe).
// Watch, a stream its caller may hold open as long as it likes, needs a
// valid token, any of them, as reflection does, and counts against its
// caller's calls admitted, so that no caller can fill the server's memory
// with streams (60,000 anonymous Watch streams took 1.7 GB).
func isOpenHealth(fullMethod string) bool {
	return fullMethod == healthpb.Health_Check_FullMethodName || fullMethod == healthpb.Health_List_FullMethodName
}

// authorize checks the bearer token of md (the "authorization" metadata)
// for a call of fullMethod and returns the token's name. Health checks
// (isOpenHealth) need no token (name ""); a missing or unknown token, or
// more than one "authorization" metadata, is an
// apperr.UnauthenticatedError, a service the token does not grant an
// apperr.PermissionDeniedError. Errors never quote the token nor its hash.
func (a *authenticator) authorize(md metadata.MD, fullMethod string) (*tokenEntry, error) {
	service := serviceOf(fullMethod)
	if isOpenHealth(fullMethod) {
		return nil, nil
	}
	if n := len(md.Get("authorization")); n > 1 {
		// Which one a proxy added, and which one the caller sent, the
		// server cannot tell: it takes neither.
		return nil, &apperr.UnauthenticatedError{Reason: fmt.Sprintf(`the call carries %d "authorization" metadata: send one`, n)}
	}
	token, err := auth.AuthFromMD(metadata.NewIncomingContext(context.Background(), md), "bearer")
	if err != nil || token == "" {
		return nil, &apperr.UnauthenticatedError{Reason: `this server requires a token: send the metadata "authorization: Bearer <token>"`}
	}
	entry := a.tokens.lookup(token)
	if entry == nil {
		return nil, &apperr.UnauthenticatedError{Reason: "the token is not valid on this server"}
	}
	short, ok := a.services[service]
	switch {
	case entry.all, reflectionServices[service], isHealth(service), ok && entry.allows(short):
		return entry, nil
	case ok:
		return nil, &apperr.PermissionDeniedError{Reason: fmt.Sprintf("token %s may not call the %s service", entry.name, short)}
	}
	return nil, &apperr.PermissionDeniedError{Reason: fmt.Sprintf("token %s may not call %s", entry.name, service)}
}

// Admit admits a request of a front end of this process (the HTTP/JSON
// gateway) for a call of fullMethod ("/pkg.Service/Method") with metadata
// md, which it is about to make over DialInternal, from the request's
// headers alone, before its body is read. It applies what the tap applies
// to a gRPC call's headers: the token rule (health checks are open,
// reflection needs any valid token), a method the server serves, and the
// caller's limit on calls admitted, so that a request whose body is still
// being read counts against its caller as a gRPC call still being read
// does, and one over the limit costs its headers and nothing more. ctx
// carries the HTTP client as its peer (the caller of a server without
// tokens). It returns the func to call once when the request has ended;
// the call it forwards is not counted again. A refusal (the call's error,
// for grpcerr.ToStatus) is logged as the server logs those of its own
// port, within the same budget, as protocol "http".
func (s *Server) Admit(ctx context.Context, md metadata.MD, fullMethod string) (release func(), err error) {
	_, leave, err := s.admission.enter(ctx, md, fullMethod, "http", false)
	if err != nil {
		return nil, err
	}
	if leave == nil {
		leave = func() {}
	}
	return sync.OnceFunc(leave), nil
}

// LogAnswered logs a request that a front end of this process (the
// HTTP/JSON gateway) answered err itself, without making its call of
// fullMethod — a body it could not decode, over its cap or too slow — as
// the server logs a call: one "finished call" line, protocol "http",
// marked answered_by_gateway, within a budget of its own, so that a flood
// of such bodies costs no line each and hides no refusal. ctx carries the
// client as its peer.
func (s *Server) LogAnswered(ctx context.Context, fullMethod string, err error) {
	s.admission.refusals.logAnswered(ctx, fullMethod, err)
}

// Stamp is the version stamp (SPEC §10) the server puts in every response
// and every error; a front end of this process (the HTTP/JSON gateway)
// adds it to the errors it answers itself.
func (s *Server) Stamp() *triagev1.VersionStamp { return s.stamp }

// serviceOf returns the service of a full method name: "/a.B/C" gives "a.B".
func serviceOf(fullMethod string) string {
	service, _ := splitMethod(fullMethod)
	return service
}

// splitMethod splits a full method name: "/a.B/C" gives "a.B" and "C".
func splitMethod(fullMethod string) (service, method string) {
	service, method, _ = strings.Cut(strings.TrimPrefix(fullMethod, "/"), "/")
	return service, method
}
