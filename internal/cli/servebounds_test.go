package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
)

// smallReferences is a ComputeReferences request that answers at once.
var smallReferences = &triagev1.ComputeReferencesRequest{
	Items:   []*triagev1.GroundTruthItem{{Id: "a", Cost: 1, Correct: true}},
	Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 1}}},
}

// trickle posts an import to addr over a raw connection, one small record
// message every period, until the server answers; it returns the answer's
// status and body.
func trickle(addr, token string, period time.Duration) (int, string, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, "", err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Minute)) // a hang bound only
	fmt.Fprintf(conn, "POST /v1/ground-truth:import HTTP/1.1\r\nHost: triage\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", token)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i := 0; ; i++ {
			msg := fmt.Sprintf(`{"records": [{"solver": {"model": "m", "mode": "SOLVER_MODE_STANDARD"}, "dataset": "aime", "problemId": "t%d", "cost": "100", "correct": true, "gradeable": true}]}`+"\n", i)
			if _, err := fmt.Fprintf(conn, "%x\r\n%s\r\n", len(msg), msg); err != nil {
				return
			}
			select {
			case <-stop:
				return
			case <-time.After(period):
			}
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), nil
}

// TestServeHTTPTrickledImportsLoseTheirSlots: imports whose bodies arrive
// below --http-min-body-rate hold their caller's concurrency slots only
// until the pace catches them (the grace, --idle-timeout, then the rate):
// they are answered 408, store nothing, and the caller's next call runs.
// Each trickle sends a whole message every half second, so the gRPC idle
// bound, which times messages, never fires: the pace does.
func TestServeHTTPTrickledImportsLoseTheirSlots(t *testing.T) {
	token := "trickle-token-19c0"
	tokens := writeFile(t, "tokens", server.HashToken(token)+" * trickler\n")
	srv := startServeHTTP(t, "--auth-tokens", tokens, "--max-concurrent", "2",
		"--idle-timeout", "5s", "--http-min-body-rate", "1000")
	conn, err := grpc.NewClient(srv.grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	oracle := triagev1.NewOracleServiceClient(conn)
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+token)

	type answer struct {
		code int
		body string
		err  error
	}
	answers := make(chan answer, 2)
	for range 2 {
		go func() {
			code, body, err := trickle(srv.httpAddr, token, 500*time.Millisecond)
			answers <- answer{code, body, err}
		}()
	}
	// The two trickles take the caller's two slots: its calls wait.
	held := false
	for deadline := time.Now().Add(time.Minute); !held && time.Now().Before(deadline); {
		short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		_, err := oracle.ComputeReferences(short, smallReferences)
		cancel()
		held = status.Code(err) == codes.DeadlineExceeded
	}
	if !held {
		t.Fatal("the trickled imports never held the caller's slots")
	}
	for range 2 {
		a := <-answers
		if a.err != nil || a.code != http.StatusRequestTimeout || !strings.Contains(a.body, "request body too slow") || !strings.Contains(a.body, `"code":4`) {
			t.Errorf("trickled import: HTTP %d %s (%v), want 408 DEADLINE_EXCEEDED, too slow", a.code, a.body, a.err)
		}
	}
	callCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if _, err := oracle.ComputeReferences(callCtx, smallReferences); err != nil {
		t.Errorf("the caller's call after the trickles ended: %v, want its slots free", err)
	}
	list, err := triagev1.NewExecutorServiceClient(conn).ListGroundTruth(callCtx, &triagev1.ListGroundTruthRequest{})
	if err != nil || len(list.GetRecords()) != 0 {
		t.Errorf("after two refused imports: %d records stored (%v), want none", len(list.GetRecords()), err)
	}
}

// httpClientFrom is an HTTP client whose connections come from the
// loopback address local.
func httpClientFrom(local string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	return &http.Client{Timeout: time.Minute, Transport: &http.Transport{DialContext: d.DialContext}}
}

// TestServeHTTPLimitsPerPeerWithoutTokens: without tokens, HTTP callers
// are counted per address as gRPC ones are, through the gateway's
// in-memory connection; an X-Forwarded-For header of the client's does not
// make it someone else.
func TestServeHTTPLimitsPerPeerWithoutTokens(t *testing.T) {
	srv := startServeHTTP(t, "--rate-limit", "1/m", "--burst", "1")
	get := func(c *http.Client, forwarded string) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, "http://"+srv.httpAddr+"/v1/planner/endpoints", nil)
		if err != nil {
			t.Fatal(err)
		}
		if forwarded != "" {
			req.Header.Set("X-Forwarded-For", forwarded)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	a, b := httpClientFrom("127.0.0.1"), httpClientFrom("127.0.0.2")
	if code := get(a, ""); code != http.StatusOK {
		t.Fatalf("first call of 127.0.0.1: HTTP %d", code)
	}
	if code := get(a, ""); code != http.StatusTooManyRequests {
		t.Errorf("second call of 127.0.0.1: HTTP %d, want 429", code)
	}
	if code := get(a, "127.0.0.9"); code != http.StatusTooManyRequests {
		t.Errorf("127.0.0.1 claiming to forward 127.0.0.9: HTTP %d, want 429", code)
	}
	if code := get(b, ""); code != http.StatusOK {
		t.Errorf("first call of 127.0.0.2, another peer: HTTP %d, want 200", code)
	}
}

// TestServeHTTPWithoutIdleBound: --idle-timeout 0 turns the bound off, and
// with it the minimum body rate, which would otherwise count from the
// first instant: a body sent a moment after its headers is read.
func TestServeHTTPWithoutIdleBound(t *testing.T) {
	srv := startServeHTTP(t, "--idle-timeout", "0")
	conn, err := net.Dial("tcp", srv.httpAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute)) // a hang bound only
	body := `{"items": [{"id": "a", "cost": 1, "correct": true}], "budgets": [{"alpha": 1}]}`
	fmt.Fprintf(conn, "POST /v1/oracle:computeReferences HTTP/1.1\r\nHost: triage\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	time.Sleep(100 * time.Millisecond)
	fmt.Fprint(conn, body)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("HTTP %d %s, want 200", resp.StatusCode, out)
	}
}

// holdBody opens a request to addr's path whose body never arrives whole:
// its headers and a first byte of a 1,000-byte body. Closing the returned
// connection ends the request.
func holdBody(t *testing.T, addr, path, token string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetDeadline(time.Now().Add(2 * time.Minute)) // a hang bound only
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: triage\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", path, token)
	return conn
}

// answered reports whether the server has answered, or closed, the held
// request on c.
func answered(c net.Conn) bool {
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	defer c.SetReadDeadline(time.Now().Add(2 * time.Minute)) // a hang bound only
	var b [1]byte
	n, err := c.Read(b[:])
	var ne net.Error
	return n > 0 || err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// TestServeHTTPBodiesBeingReadCount: an HTTP request counts against its
// caller's calls admitted from its headers on, as a gRPC call does, so a
// caller cannot make the server hold more bodies than its limit by
// sending them slowly: with --max-concurrent 1 (at most 5 calls admitted),
// five bodies still being read leave the same caller's sixth request a
// 429 with Retry-After, and its gRPC calls ResourceExhausted, from their
// headers. The call a request is forwarded as is not counted again: with
// four bodies held, a fifth request runs. Callers are tokens, or, on a
// server without tokens, the HTTP client's address, which the gateway
// counts by as the server does.
func TestServeHTTPBodiesBeingReadCount(t *testing.T) {
	token := "held-bodies-token-7e21"
	tokens := writeFile(t, "tokens", server.HashToken(token)+" * holder\n")
	t.Run("tokens", func(t *testing.T) {
		bodiesBeingReadCount(t, token, startServeHTTP(t, "--auth-tokens", tokens, "--max-concurrent", "1"))
	})
	t.Run("addresses", func(t *testing.T) {
		bodiesBeingReadCount(t, token, startServeHTTP(t, "--max-concurrent", "1"))
	})
}

func bodiesBeingReadCount(t *testing.T, token string, srv *servedHTTP) {
	path := "/v1/oracle:computeReferences"
	call := func() (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, "http://"+srv.httpAddr+path,
			strings.NewReader(`{"items": [{"id": "a", "cost": 1, "correct": true}], "budgets": [{"alpha": 1}]}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(body)
	}
	var held []net.Conn
	for range 1 + server.QueuedPerSlot {
		held = append(held, holdBody(t, srv.httpAddr, path, token))
	}
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	// The held requests are admitted as the server reads their headers:
	// until it has, a call may still get in, and a held request read
	// while that call runs is the one refused (its connection answered and
	// closed): it is opened again, until all are held at once.
	var code int
	var header http.Header
	var body string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		for i, c := range held {
			if answered(c) {
				c.Close()
				held[i] = holdBody(t, srv.httpAddr, path, token)
			}
		}
		if code, header, body = call(); code == http.StatusTooManyRequests {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code != http.StatusTooManyRequests || header.Get("Retry-After") == "" || !strings.Contains(body, "calls admitted") {
		t.Fatalf("a request beside five bodies being read: HTTP %d, Retry-After %q, %s; want 429, calls admitted, with Retry-After", code, header.Get("Retry-After"), body)
	}
	conn, err := grpc.NewClient(srv.grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+token), time.Minute)
	defer cancel()
	if _, err := triagev1.NewOracleServiceClient(conn).ComputeReferences(ctx, smallReferences); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a gRPC call beside five HTTP bodies being read: %v, want ResourceExhausted", err)
	}
	held[0].Close()
	held = held[1:]
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		if code, _, body = call(); code != http.StatusTooManyRequests {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code != http.StatusOK {
		t.Errorf("a request beside four bodies being read: HTTP %d %s, want 200 (the call it is forwarded as counted once)", code, body)
	}
}
