package gateway

import (
	"net/http"
	"slices"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
)

// queryFields maps each route ("POST /v1/scoring:scorePlan", as
// authorization's routes) to the message whose fields its query may name:
// nil for the routes whose handler reads no query parameter — those whose
// body is the whole request ("*") and those whose request has no field —
// and the request itself for the others (none binds a field by its path).
func queryFields() map[string]protoreflect.MessageDescriptor {
	out := map[string]protoreflect.MessageDescriptor{}
	eachRoute(func(route string, md protoreflect.MethodDescriptor, rule *annotations.HttpRule) {
		if rule.GetBody() == "*" || md.Input().Fields().Len() == 0 {
			out[route] = nil
		} else {
			out[route] = md.Input()
		}
	})
	return out
}

// unboundQuery refuses every query parameter that names no field the
// route reads with InvalidArgument and a google.rpc.BadRequest naming it
// (HTTP 400): never silently dropped. The generated handlers of routes
// without query fields never call the query parser, and the parser's own
// refusal (strictQueryParser, kept as a backstop) reaches the client
// without the field.
type unboundQuery struct {
	routes map[string]protoreflect.MessageDescriptor
	mux    *runtime.ServeMux // set once New has built it
}

// middleware is the runtime.Middleware.
func (q *unboundQuery) middleware(next runtime.HandlerFunc) runtime.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, params map[string]string) {
		pat, ok := runtime.HTTPPattern(r.Context())
		query := r.URL.Query()
		var fields protoreflect.MessageDescriptor
		if ok {
			fields, ok = q.routes[r.Method+" "+pat.String()]
		}
		if !ok || len(query) == 0 {
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
			switch {
			case fields == nil:
				v.Add(k, "unknown query parameter: %s %s takes no query parameters", r.Method, pat.String())
			case !fieldPathExists(fields, strings.Split(k, ".")):
				v.Add(k, "unknown query parameter: not a field of %s", fields.FullName())
			}
		}
		if v.Len() == 0 {
			next(w, r, params)
			return
		}
		err := grpcerr.ToStatus(v.Err())
		logAnswered(r, err)
		_, out := runtime.MarshalerForRequest(q.mux, r)
		errorHandler(r.Context(), q.mux, out, w, r, err)
	}
}
