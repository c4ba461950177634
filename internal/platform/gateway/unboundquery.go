package gateway

import (
	"net/http"
	"slices"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
)

// queryless lists the routes ("POST /v1/scoring:scorePlan", as
// authorization's routes) whose handler reads no query parameter: those
// whose body is the whole request ("*") and those whose request has no
// field. The generated handlers of those routes never call the query
// parser (strictQueryParser), so without this check a parameter would be
// silently dropped there.
func queryless() map[string]bool {
	out := map[string]bool{}
	eachRoute(func(route string, md protoreflect.MethodDescriptor, rule *annotations.HttpRule) {
		if rule.GetBody() == "*" || md.Input().Fields().Len() == 0 {
			out[route] = true
		}
	})
	return out
}

// unboundQuery refuses a query parameter on a queryless route with
// InvalidArgument naming it (HTTP 400 with a google.rpc.BadRequest), as
// strictQueryParser does on the others: never silently dropped.
type unboundQuery struct {
	routes map[string]bool
	mux    *runtime.ServeMux // set once New has built it
}

// middleware is the runtime.Middleware.
func (q *unboundQuery) middleware(next runtime.HandlerFunc) runtime.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, params map[string]string) {
		pat, ok := runtime.HTTPPattern(r.Context())
		query := r.URL.Query()
		if !ok || len(query) == 0 || !q.routes[r.Method+" "+pat.String()] {
			next(w, r, params)
			return
		}
		keys := make([]string, 0, len(query))
		for k := range query {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var v apperr.Violations
		for _, k := range keys {
			v.Add(k, "unknown query parameter: %s %s takes no query parameters (its request is the JSON body)", r.Method, pat.String())
		}
		_, out := runtime.MarshalerForRequest(q.mux, r)
		errorHandler(r.Context(), q.mux, out, w, r, grpcerr.ToStatus(v.Err()))
	}
}
