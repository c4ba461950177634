package gateway

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
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

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
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
// Admitter about the gRPC method its HTTP rule names, from the headers,
// and a refused request is answered 401 (with WWW-Authenticate) or 403
// before anything reads its body; /healthz is asked as a health check,
// /openapi.json as reflection.
func TestAuthorizationBeforeTheBody(t *testing.T) {
	var (
		mu    sync.Mutex
		asked []string
		seen  []string
	)
	admit := func(_ context.Context, md metadata.MD, fullMethod string) (func(), error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, fullMethod)
		seen = append(seen, strings.Join(md.Get("authorization"), ","))
		if len(md.Get("authorization")) == 0 {
			return nil, &apperr.UnauthenticatedError{Reason: "no token"}
		}
		return nil, &apperr.PermissionDeniedError{Reason: "not granted"}
	}
	// No call may reach the server: a connection that fails the test.
	mux, err := New(context.Background(), failingConn{t}, Options{Admit: admit})
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
			want, wantAuth, wantHeader := http.StatusUnauthorized, `Bearer realm="triage"`, ""
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
// and a little of a small body, then nothing, gets its 401 at once, and the
// server closes the connection: it does not wait for the rest (net/http
// reads up to 256 KiB of an unread body when the call ends, which held such
// a connection open until its read timeout, so that clients without a
// token could hold every file descriptor of the server).
func TestRefusedRequestDoesNotWaitForItsBody(t *testing.T) {
	refuse := func(context.Context, metadata.MD, string) (func(), error) {
		return nil, &apperr.UnauthenticatedError{Reason: "no token"}
	}
	mux, err := New(context.Background(), failingConn{t}, Options{Admit: refuse})
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
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("HTTP %d, want 401", resp.StatusCode)
	}
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Errorf("after the 401 the connection gave %v, want it closed by the server (EOF)", err)
	}
}

// TestRefusedHTTP2AnswerPrecedesTheReset reads the frames of a refused
// HTTP/2 request whose body is still coming: the answer's body (DATA)
// comes before the stream's reset, which curl otherwise reports as a
// partial transfer ("Connection: close" also ended the whole connection).
func TestRefusedHTTP2AnswerPrecedesTheReset(t *testing.T) {
	refuse := func(context.Context, metadata.MD, string) (func(), error) {
		return nil, &apperr.UnauthenticatedError{Reason: "no token"}
	}
	mux, err := New(context.Background(), failingConn{t}, Options{Admit: refuse})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(mux)
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	for range 20 {
		if got := refusedFrames(t, srv.Listener.Addr().String()); got != "HEADERS DATA" && !strings.HasPrefix(got, "HEADERS DATA ") {
			t.Fatalf("frames of the refused stream: %q; want its HEADERS, then its DATA", got)
		}
	}
}

// refusedFrames sends the headers and 16 KiB of a 1 MB body on a new
// HTTP/2 connection to addr and returns the frames of its stream, up to
// the end of the stream, its reset or the connection's GOAWAY.
func refusedFrames(t *testing.T, addr string) string {
	t.Helper()
	conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute)) // a hang bound only
	if _, err := io.WriteString(conn, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	fr := http2.NewFramer(conn, conn)
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	for _, f := range [][2]string{{":method", "POST"}, {":scheme", "https"}, {":authority", addr}, {":path", "/v1/oracle:computeReferences"},
		{"content-type", "application/json"}, {"content-length", "1000000"}} {
		_ = enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	if err := errors.Join(fr.WriteSettings(), fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hb.Bytes(), EndHeaders: true}),
		fr.WriteData(1, false, make([]byte, 16384))); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return strings.Join(append(got, "error: "+err.Error()), " ")
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				_ = fr.WriteSettingsAck()
			}
		case *http2.GoAwayFrame:
			return strings.Join(append(got, "GOAWAY"), " ")
		case *http2.HeadersFrame:
			got = append(got, "HEADERS")
		case *http2.DataFrame:
			if len(f.Data()) > 0 {
				got = append(got, "DATA")
			}
			if f.StreamEnded() {
				return strings.Join(got, " ")
			}
		case *http2.RSTStreamFrame:
			return strings.Join(append(got, "RST_STREAM"), " ")
		}
	}
}
