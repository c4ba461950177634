package gateway

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	_ "google.golang.org/genproto/googleapis/rpc/errdetails" // resolves the @type of error details
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/triage-eval/triage/api/openapi"
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// Marshaler is the JSON encoding of every request, response and error.
func Marshaler() runtime.Marshaler {
	return jsonMarshaler{&runtime.JSONPb{
		MarshalOptions: protojson.MarshalOptions{
			EmitUnpopulated: true,
		},
		UnmarshalOptions: protojson.UnmarshalOptions{
			DiscardUnknown: false,
		},
	}}
}

// queryParserOnce installs the strict query parser. grpc-gateway keeps the
// query parser in a package variable, which the SetQueryParameterParser
// option of any new mux writes: writing it once, before New builds its first
// mux, keeps the write from racing with requests on muxes already serving.
var queryParserOnce sync.Once

// OpenAPIPath is where New serves the OpenAPI v2 document of the mapping.
const OpenAPIPath = "/openapi.json"

// Options adjust New.
type Options struct {
	// Admit, when set, applies the gRPC server's token rule and its
	// caller's limit on calls admitted to every request from its headers,
	// before its body is read (auth.go).
	Admit Admitter
	// Log, when set, logs each request the gateway answers itself, having
	// made no call of it (answerlog.go); the calls it makes, an import's
	// among them, the server logs.
	Log AnswerLogger
}

// New returns a mux serving the HTTP/JSON mapping of the Oracle, Executor,
// Planner and Scoring services, each call forwarded over conn. A service
// the server behind conn does not serve answers HTTP 501 (gRPC
// Unimplemented). GET /healthz
// answers the server's gRPC health (200 when serving, 503 when not, as
// during a drain; ?service=NAME for one service), GET /openapi.json the
// OpenAPI document. A body over its cap (ServerConfig) answers HTTP 413.
// With opts.Admit, a request the server would refuse for its token, or
// because its caller has its most calls admitted, is refused before its
// body is read: /healthz is open as health checks are, /openapi.json needs
// what reflection needs.
func New(ctx context.Context, conn grpc.ClientConnInterface, opts Options) (*runtime.ServeMux, error) {
	queryParserOnce.Do(func() { runtime.NewServeMux(runtime.SetQueryParameterParser(strictQueryParser{})) })
	var auth *admission
	query := &unboundQuery{routes: queryFields()}
	routeMethods := routes()
	middlewares := []runtime.Middleware{answerLogs{log: opts.Log, routes: routeMethods}.middleware, query.middleware, trackBodies}
	if opts.Admit != nil {
		auth = &admission{admit: opts.Admit, routes: routeMethods}
		middlewares = append([]runtime.Middleware{auth.middleware}, middlewares...)
	}
	mux := runtime.NewServeMux(
		runtime.WithMarshalerOption(runtime.MIMEWildcard, Marshaler()),
		runtime.WithErrorHandler(errorHandler),
		runtime.WithStreamErrorHandler(streamErrorHandler),
		runtime.WithRoutingErrorHandler(routingErrors(routeMethods)),
		runtime.WithMiddlewares(middlewares...),
		runtime.WithHealthEndpointAt(healthpb.NewHealthClient(conn), healthzPath),
	)
	if auth != nil {
		auth.mux = mux
	}
	query.mux = mux
	if err := mux.HandlePath(http.MethodGet, OpenAPIPath, serveOpenAPI); err != nil {
		return nil, fmt.Errorf("gateway: %s: %w", OpenAPIPath, err)
	}
	register := []struct {
		name string
		fn   func() error
	}{
		{"oracle", func() error {
			return triagev1.RegisterOracleServiceHandlerClient(ctx, mux, triagev1.NewOracleServiceClient(conn))
		}},
		{"executor", func() error {
			return triagev1.RegisterExecutorServiceHandlerClient(ctx, mux, triagev1.NewExecutorServiceClient(conn))
		}},
		{"planner", func() error {
			return triagev1.RegisterPlannerServiceHandlerClient(ctx, mux, triagev1.NewPlannerServiceClient(conn))
		}},
		{"scoring", func() error {
			return triagev1.RegisterScoringServiceHandlerClient(ctx, mux, triagev1.NewScoringServiceClient(conn))
		}},
	}
	for _, r := range register {
		if err := r.fn(); err != nil {
			return nil, fmt.Errorf("gateway: register %s: %w", r.name, err)
		}
	}
	return mux, nil
}

// serveOpenAPI writes the OpenAPI document.
func serveOpenAPI(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openapi.Document) // a failed write is the client gone
}
