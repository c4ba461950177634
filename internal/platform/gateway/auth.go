package gateway

import (
	"context"
	"net/http"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/api/annotations"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	reflectionv1 "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
)

// Admitter admits a request for a call of fullMethod
// ("/pkg.Service/Method") with the metadata md the call would carry, from
// the request's headers alone, before its body is read: it applies the
// gRPC server's token rule and counts the request against its caller's
// calls admitted (server.Server.Admit, which also logs a refusal). It
// returns the func to call once when the request has ended, or the error
// the call would get. ctx carries the HTTP client as its peer
// (peer.FromContext).
type Admitter func(ctx context.Context, md metadata.MD, fullMethod string) (release func(), err error)

// Paths the mux serves besides the RPCs, and the gRPC method whose rule
// each follows: the health endpoint is open, as health checks are, and the
// OpenAPI document, which describes the API as reflection does, needs what
// reflection needs.
var (
	healthzPath     = "/healthz"
	healthMethod    = "/" + healthpb.Health_ServiceDesc.ServiceName + "/Check"
	reflectionRPC   = "/" + reflectionv1.ServerReflection_ServiceDesc.ServiceName + "/ServerReflectionInfo"
	servedFiles     = []protoreflect.FileDescriptor{triagev1.File_triage_v1_oracle_proto, triagev1.File_triage_v1_executor_proto, triagev1.File_triage_v1_planner_proto, triagev1.File_triage_v1_scoring_proto}
	extraRouteRules = map[string]string{
		http.MethodGet + " " + healthzPath: healthMethod,
		http.MethodGet + " " + OpenAPIPath: reflectionRPC,
	}
)

// routes maps each route of the mux ("POST /v1/oracle:computeReferences",
// as the request's method and runtime.HTTPPattern) to the gRPC method it
// calls, read from the google.api.http rules the handlers are generated
// from.
func routes() map[string]string {
	out := map[string]string{}
	for k, v := range extraRouteRules {
		out[k] = v
	}
	eachRoute(func(route string, md protoreflect.MethodDescriptor, _ *annotations.HttpRule) {
		out[route] = "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
	})
	return out
}

// eachRoute calls fn with every route of the served files' google.api.http
// rules ("POST /v1/oracle:computeReferences"), its method and its rule.
func eachRoute(fn func(route string, md protoreflect.MethodDescriptor, rule *annotations.HttpRule)) {
	for _, fd := range servedFiles {
		for i := range fd.Services().Len() {
			sd := fd.Services().Get(i)
			for j := range sd.Methods().Len() {
				md := sd.Methods().Get(j)
				rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
				for _, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
					if method, path := ruleRoute(r); path != "" {
						fn(method+" "+path, md, r)
					}
				}
			}
		}
	}
}

// ruleRoute returns the HTTP method and path template of an HTTP rule.
func ruleRoute(r *annotations.HttpRule) (method, path string) {
	switch p := r.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		return http.MethodGet, p.Get
	case *annotations.HttpRule_Post:
		return http.MethodPost, p.Post
	case *annotations.HttpRule_Put:
		return http.MethodPut, p.Put
	case *annotations.HttpRule_Delete:
		return http.MethodDelete, p.Delete
	case *annotations.HttpRule_Patch:
		return http.MethodPatch, p.Patch
	case *annotations.HttpRule_Custom:
		return p.Custom.GetKind(), p.Custom.GetPath()
	}
	return "", ""
}

// admission is the mux's outermost middleware: it refuses a request the
// gRPC server would refuse from its headers — for its token (HTTP 401 or
// 403 with the server's google.rpc.Status; the default error handler adds
// WWW-Authenticate to a 401), or because its caller has its most calls
// admitted already (429) — before anything reads its body, so that such a
// request costs its headers and nothing more, as on the gRPC port; an
// admitted request counts against its caller until it ends. A route it
// cannot name a method for (none today) is asked for the method "", which
// the server serves none of: refused for every token.
type admission struct {
	admit  Admitter
	routes map[string]string
	mux    *runtime.ServeMux // set once New has built it
}

// closeAfter spares the server a request's unread body: on HTTP/1.x the
// connection closes after the answer, and its read deadline is moved to
// now, because net/http, closing the request's body when the call ends,
// still reads up to 256 KiB of it, waiting for bytes a client may never
// send (such a connection was held until its read timeout: a client
// without a token could hold them all). The answer, a write, is not
// affected. HTTP/2 resets the stream's unread body by itself; a
// "Connection: close" there makes the server end the whole connection,
// which may cut off the answer's body in flight.
func closeAfter(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor < 2 {
		w.Header().Set("Connection", "close")
		_ = http.NewResponseController(w).SetReadDeadline(time.Now()) // a writer without deadlines keeps the read timeout
	}
}

// remoteAddr is an HTTP request's RemoteAddr as a net.Addr.
type remoteAddr string

// Network is the HTTP connection's network.
func (remoteAddr) Network() string { return "tcp" }

// String is the address, "host:port".
func (a remoteAddr) String() string { return string(a) }

// middleware is the runtime.Middleware.
func (a *admission) middleware(next runtime.HandlerFunc) runtime.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, params map[string]string) {
		fullMethod := routeMethod(a.routes, r)
		ctx := peer.NewContext(r.Context(), &peer.Peer{Addr: remoteAddr(r.RemoteAddr)})
		release, err := a.admit(ctx, metadata.MD{"authorization": r.Header.Values("Authorization")}, fullMethod)
		if err == nil {
			defer release()
			next(w, r, params)
			return
		}
		err = grpcerr.ToStatus(err)
		closeAfter(w, r)
		_, out := runtime.MarshalerForRequest(a.mux, r)
		errorHandler(r.Context(), a.mux, out, w, r, err)
	}
}

// routeMethod is the gRPC method of r's route in routes ("" for a route it
// cannot name one for).
func routeMethod(routes map[string]string, r *http.Request) string {
	if pat, ok := runtime.HTTPPattern(r.Context()); ok {
		return routes[r.Method+" "+pat.String()]
	}
	return ""
}
