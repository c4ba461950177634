package gateway

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/protoadapt"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/services/planner"
)

// TestBoundCapsBodies: an import may send MaxImportBytes, any other call
// MaxBodyBytes.
func TestBoundCapsBodies(t *testing.T) {
	cfg := ServerConfig{MaxBodyBytes: 100, MaxImportBytes: 1000}
	h := cfg.bound(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		_, _ = io.WriteString(w, strings.Repeat("x", len(b)))
	}))
	tests := []struct {
		path     string
		size     int
		wantCode int
	}{
		{"/v1/oracle:computeReferences", 100, http.StatusOK},
		{"/v1/oracle:computeReferences", 101, http.StatusRequestEntityTooLarge},
		{PlanPath, 500, http.StatusRequestEntityTooLarge},
		{ImportPath, 1000, http.StatusOK},
		{ImportPath, 1001, http.StatusRequestEntityTooLarge},
	}
	for _, tc := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, tc.path, strings.NewReader(strings.Repeat("a", tc.size))))
		if rec.Code != tc.wantCode {
			t.Errorf("%s with %d bytes: HTTP %d, want %d", tc.path, tc.size, rec.Code, tc.wantCode)
		}
	}
}

// TestLongPathsAreTheLongCalls: the paths given the long timeout are those
// of the streaming RPCs and of CreatePlan, as the HTTP rules say.
func TestLongPathsAreTheLongCalls(t *testing.T) {
	want := map[string]bool{}
	for _, m := range longMethods(t) {
		want[m] = true
	}
	for p := range longPaths {
		if !want[p] {
			t.Errorf("%s has the long timeout but is not a long call", p)
		}
		delete(want, p)
	}
	for p := range want {
		t.Errorf("%s is a long call without the long timeout", p)
	}
}

// longMethods returns the HTTP paths of the RPCs the gRPC server gives its
// long deadline: streams, and what the Planner says is long (CreatePlan).
func longMethods(t *testing.T) []string {
	t.Helper()
	var out []string
	long := (&planner.Service{}).LongRunning
	for _, fd := range servedFiles {
		for i := range fd.Services().Len() {
			sd := fd.Services().Get(i)
			for j := range sd.Methods().Len() {
				md := sd.Methods().Get(j)
				full := "/" + string(sd.FullName()) + "/" + string(md.Name())
				if !md.IsStreamingClient() && !md.IsStreamingServer() && !long(full) {
					continue
				}
				rule, ok := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
				if !ok || rule == nil {
					t.Fatalf("%s has no HTTP rule", full)
				}
				out = append(out, rule.GetPost()+rule.GetGet())
			}
		}
	}
	return out
}

// TestQueryFields: every route with a JSON body, and the one whose request
// has no field, reads no query parameter; the listing of ground truth
// reads its request's fields there.
func TestQueryFields(t *testing.T) {
	q := queryFields()
	for route := range routes() {
		if fields, ok := q[route]; strings.HasPrefix(route, http.MethodPost+" ") && (!ok || fields != nil) {
			t.Errorf("%s takes its request as the body but reads a query", route)
		}
	}
	if fields, ok := q["GET /v1/planner/endpoints"]; !ok || fields != nil {
		t.Errorf("GET /v1/planner/endpoints reads query fields %v", fields)
	}
	if fields := q["GET /v1/ground-truth"]; fields == nil || fields.FullName() != "triage.v1.ListGroundTruthRequest" {
		t.Errorf("GET /v1/ground-truth reads query fields %v", fields)
	}
}

// TestGraceEndAnswers503: a request still in flight when the grace period
// is over is answered 503, which its caller can retry, before its
// connection is closed; it got an empty reply ("curl: (52) Empty reply
// from server").
func TestGraceEndAnswers503(t *testing.T) {
	mux, err := New(context.Background(), failingConn{t}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done() // a call that outlives the grace period
		_, out := runtime.MarshalerForRequest(mux, r)
		errorHandler(r.Context(), mux, out, w, r, status.FromContextError(r.Context().Err()).Err())
	})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, lis, slow, ServerConfig{Grace: 50 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	}()
	answered := make(chan *http.Response, 1)
	go func() {
		resp, err := http.Get("http://" + lis.Addr().String() + "/v1/oracle:slow")
		if err != nil {
			t.Errorf("the request in flight got no answer: %v", err)
		}
		answered <- resp
	}()
	<-started
	stop()
	resp := <-answered
	if resp != nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "shutting down") {
			t.Errorf("HTTP %d %s, want 503 saying the server is shutting down", resp.StatusCode, body)
		}
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestStreamErrorAtGraceEnd: a streamed answer cut off when the shutdown
// grace ends finishes with Unavailable saying to retry, stamped; other
// stream errors pass as they are, stamped. A stream once ended with
// "context canceled" (HTTP 499), no hint and no stamp.
func TestStreamErrorAtGraceEnd(t *testing.T) {
	stamp := &triagev1.VersionStamp{Protocol: "triage.v1"}
	base, end := context.WithCancelCause(context.WithValue(context.Background(), errorDetailKey{}, protoadapt.MessageV1(stamp)))
	defer end(nil)
	other := streamErrorHandler(base, status.Error(codes.NotFound, "no such thing"))
	end(errShuttingDown)
	cut := streamErrorHandler(base, status.FromContextError(base.Err()).Err())
	for _, tc := range []struct {
		name string
		st   *status.Status
		code codes.Code
		msg  string
	}{
		{"another error", other, codes.NotFound, "no such thing"},
		{"cut off at the grace's end", cut, codes.Unavailable, "retry the call"},
	} {
		hasStamp := false
		for _, d := range tc.st.Details() {
			if _, ok := d.(*triagev1.VersionStamp); ok {
				hasStamp = true
			}
		}
		if tc.st.Code() != tc.code || !strings.Contains(tc.st.Message(), tc.msg) || !hasStamp {
			t.Errorf("%s: %v %q (details %v), want %v with %q, stamped", tc.name, tc.st.Code(), tc.st.Message(), tc.st.Details(), tc.code, tc.msg)
		}
	}
}
