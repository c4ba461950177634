package gateway

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// routingErrors answers a request whose path is a route's but whose method
// is not with HTTP 405 and an Allow header listing the route's methods
// (grpc-gateway's default answers 501, as for a call the server does not
// implement); every other routing error as grpc-gateway does.
func routingErrors(routes map[string]string) runtime.RoutingErrorHandlerFunc {
	return func(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, httpStatus int) {
		if httpStatus != http.StatusMethodNotAllowed {
			runtime.DefaultRoutingErrorHandler(ctx, mux, m, w, r, httpStatus)
			return
		}
		var allow []string
		for route := range routes {
			if method, path, _ := strings.Cut(route, " "); path == r.URL.Path {
				allow = append(allow, method)
			}
		}
		slices.Sort(allow)
		if len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
		}
		err := &runtime.HTTPStatusError{
			HTTPStatus: http.StatusMethodNotAllowed,
			Err:        status.Error(codes.Unimplemented, fmt.Sprintf("method %s not allowed on %s; allowed: %s", r.Method, r.URL.Path, strings.Join(allow, ", "))),
		}
		errorHandler(ctx, mux, m, w, r, err)
	}
}
