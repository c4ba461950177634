package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth"
	"google.golang.org/grpc"
	reflectionv1 "google.golang.org/grpc/reflection/grpc_reflection_v1"
	reflectionv1alpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// anonymous is the caller of every call when the server has no token table.
const anonymous = "anonymous"

// callerKey is the context key of the caller's name.
type callerKey struct{}

// withCaller returns ctx naming the caller; limits are kept per caller.
func withCaller(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, callerKey{}, name)
}

// Caller returns the name of the caller of the call ctx belongs to: the
// name of its token (the token file's third field, or FILE:LINE), or
// "anonymous" on a server without tokens. It never returns the token.
func Caller(ctx context.Context) string {
	if name, ok := ctx.Value(callerKey{}).(string); ok {
		return name
	}
	return anonymous
}

// authenticator checks bearer tokens against a token table and the service
// each token may call.
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

// authenticate is the middleware's AuthFunc: a missing or unknown token is
// Unauthenticated, a service the token does not grant is PermissionDenied.
// Errors never quote the token nor its hash.
func (a *authenticator) authenticate(ctx context.Context) (context.Context, error) {
	token, err := auth.AuthFromMD(ctx, "bearer")
	if err != nil || token == "" {
		return nil, &apperr.UnauthenticatedError{Reason: `this server requires a token: send the metadata "authorization: Bearer <token>"`}
	}
	entry := a.tokens.lookup(token)
	if entry == nil {
		return nil, &apperr.UnauthenticatedError{Reason: "the token is not valid on this server"}
	}
	method, _ := grpc.Method(ctx)
	service := serviceOf(method)
	short, ok := a.services[service]
	switch {
	case entry.all, reflectionServices[service], ok && entry.allows(short):
		return withCaller(ctx, entry.name), nil
	case ok:
		return nil, &apperr.PermissionDeniedError{Reason: fmt.Sprintf("token %s may not call the %s service", entry.name, short)}
	}
	return nil, &apperr.PermissionDeniedError{Reason: fmt.Sprintf("token %s may not call %s", entry.name, service)}
}

// serviceOf returns the service of a full method name: "/a.B/C" gives "a.B".
func serviceOf(fullMethod string) string {
	service, _, _ := strings.Cut(strings.TrimPrefix(fullMethod, "/"), "/")
	return service
}

// authInterceptors returns the middleware's auth interceptors around a.
func (a *authenticator) interceptors() (grpc.UnaryServerInterceptor, grpc.StreamServerInterceptor) {
	return auth.UnaryServerInterceptor(a.authenticate), auth.StreamServerInterceptor(a.authenticate)
}
