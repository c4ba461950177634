package gateway

import (
	"context"
	"errors"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/peer"
)

// AnswerLogger logs a request the gateway answered itself, without making
// its call — a body it could not decode, over its cap or too slow, an
// unknown query parameter — as the server logs a call it refused (an
// import's call, made before its body is read, the server logs; see
// server.Server.LogAnswered): the gRPC method the request was for, and the
// status it was answered. ctx carries the HTTP client as its peer.
type AnswerLogger func(ctx context.Context, fullMethod string, err error)

// answerLog is what the request's context carries for logAnswered: the
// logger, and the method of the request's route.
type answerLog struct {
	log    AnswerLogger
	method string
}

type answerLogKey struct{}

// answerLogs is the mux's middleware that gives each request's context its
// answerLog.
type answerLogs struct {
	log    AnswerLogger
	routes map[string]string // as admission's
}

func (a answerLogs) middleware(next runtime.HandlerFunc) runtime.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, params map[string]string) {
		next(w, r.WithContext(context.WithValue(r.Context(), answerLogKey{}, answerLog{log: a.log, method: routeMethod(a.routes, r)})), params)
	}
}

// logAnswered logs err, the answer the gateway gave r itself: its status,
// whatever HTTP status the answer has.
func logAnswered(r *http.Request, err error) {
	a, ok := r.Context().Value(answerLogKey{}).(answerLog)
	if !ok || a.log == nil {
		return
	}
	var hs *runtime.HTTPStatusError
	if errors.As(err, &hs) {
		err = hs.Err
	}
	a.log(peer.NewContext(r.Context(), &peer.Peer{Addr: remoteAddr(r.RemoteAddr)}), a.method, err)
}
