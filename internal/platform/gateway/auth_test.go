package gateway

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// countingBody counts the reads of a request body.
type countingBody struct {
	io.ReadCloser
	reads *atomic.Int64
}

func (b countingBody) Read(p []byte) (int, error) {
	b.reads.Add(1)
	return b.ReadCloser.Read(p)
}

// TestAuthorizationBeforeTheBody: every route of the mux asks the
// Authorizer about the gRPC method its HTTP rule names, from the headers,
// and a refused request is answered 401 (with WWW-Authenticate) or 403
// before anything reads its body; /healthz is asked as a health check,
// /openapi.json as reflection.
func TestAuthorizationBeforeTheBody(t *testing.T) {
	var (
		mu    sync.Mutex
		asked []string
		seen  []string
	)
	authorize := func(md metadata.MD, fullMethod string) error {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, fullMethod)
		seen = append(seen, strings.Join(md.Get("authorization"), ","))
		if len(md.Get("authorization")) == 0 {
			return &apperr.UnauthenticatedError{Reason: "no token"}
		}
		return &apperr.PermissionDeniedError{Reason: "not granted"}
	}
	// No call may reach the server: a connection that fails the test.
	mux, err := New(context.Background(), failingConn{t}, Options{Authorize: authorize})
	if err != nil {
		t.Fatal(err)
	}
	var reads atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = countingBody{r.Body, &reads}
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()

	type route struct{ method, path, fullMethod string }
	routes := []route{{http.MethodGet, "/healthz", "/grpc.health.v1.Health/Check"}, {http.MethodGet, OpenAPIPath, "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"}}
	for _, fd := range servedFiles {
		for i := range fd.Services().Len() {
			sd := fd.Services().Get(i)
			for j := range sd.Methods().Len() {
				md := sd.Methods().Get(j)
				rule := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
				method, path := ruleRoute(rule)
				routes = append(routes, route{method, path, "/" + string(sd.FullName()) + "/" + string(md.Name())})
			}
		}
	}
	if len(routes) < 9 {
		t.Fatalf("only %d routes", len(routes))
	}
	for _, rt := range routes {
		for _, token := range []string{"", "some-token"} {
			mu.Lock()
			asked, seen = nil, nil
			mu.Unlock()
			// A small body: one the client has sent whole before the answer
			// (the connection then closes; a large one may still be on its
			// way, and the client sees the reset instead of the answer).
			req, err := http.NewRequest(rt.method, srv.URL+rt.path, strings.NewReader(strings.Repeat(" ", 1<<10)))
			if err != nil {
				t.Fatal(err)
			}
			want, wantAuth, wantHeader := http.StatusUnauthorized, "no token", ""
			if token != "" {
				wantHeader = "Bearer " + token
				req.Header.Set("Authorization", "Bearer "+token)
				want, wantAuth = http.StatusForbidden, ""
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", rt.method, rt.path, err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want || resp.Header.Get("WWW-Authenticate") != wantAuth {
				t.Errorf("%s %s with token %q: HTTP %d (WWW-Authenticate %q) %s, want %d", rt.method, rt.path, token, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body, want)
			}
			mu.Lock()
			if len(asked) != 1 || asked[0] != rt.fullMethod || seen[0] != wantHeader {
				t.Errorf("%s %s: asked about %q with %q, want %s", rt.method, rt.path, asked, seen, rt.fullMethod)
			}
			mu.Unlock()
		}
	}
	if n := reads.Load(); n != 0 {
		t.Errorf("the refused requests' bodies were read %d times", n)
	}
}

// failingConn is a gRPC connection that fails the test when used.
type failingConn struct{ t *testing.T }

func (c failingConn) Invoke(context.Context, string, any, any, ...grpc.CallOption) error {
	c.t.Error("a refused request reached the server")
	return io.EOF
}

func (c failingConn) NewStream(context.Context, *grpc.StreamDesc, string, ...grpc.CallOption) (grpc.ClientStream, error) {
	c.t.Error("a refused request reached the server")
	return nil, io.EOF
}

// TestRefusedRequestDoesNotWaitForItsBody: a client that sends its headers
// and a little of a small body, then nothing, gets its 401 at once; the
// server does not wait for the rest (to reuse the connection).
func TestRefusedRequestDoesNotWaitForItsBody(t *testing.T) {
	refuse := func(metadata.MD, string) error { return &apperr.UnauthenticatedError{Reason: "no token"} }
	mux, err := New(context.Background(), failingConn{t}, Options{Authorize: refuse})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute)) // a hang bound only
	fmt.Fprintf(conn, "POST /v1/oracle:computeReferences HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"items\":")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("HTTP %d, want 401", resp.StatusCode)
	}
}
