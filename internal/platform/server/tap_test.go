package server_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
)

// TestTokenIsCheckedBeforeTheRequestIsRead: a call without a valid token is
// refused on its headers. The proof is a request over the server's message
// limit: read first, it would be refused ResourceExhausted; refused on its
// headers, it is Unauthenticated (or PermissionDenied), and the handler
// never runs. With the token, the same request is read, and refused for its
// size.
func TestTokenIsCheckedBeforeTheRequestIsRead(t *testing.T) {
	logs := &servertest.LogBuffer{}
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.Tokens = tokenTable(t)
	cfg.MaxMessageBytes = 4096
	p, svc := newProbe()
	conn := dial(t, serve(t, cfg, logs, nil, svc))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	big := strings.Repeat("x", 1<<20)

	for _, tc := range []struct {
		name string
		ctx  context.Context
		want codes.Code
	}{
		{"no token", ctx, codes.Unauthenticated},
		{"wrong token", bearer(ctx, "wrong"), codes.Unauthenticated},
		{"service not granted", bearer(ctx, otherToken), codes.PermissionDenied},
		{"granted", bearer(ctx, probeToken), codes.ResourceExhausted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := call(tc.ctx, conn, big, grpc.MaxCallSendMsgSize(2<<20)); status.Code(err) != tc.want {
				t.Errorf("unary call of 1 MiB: %v, want %v", err, tc.want)
			}
			stream, err := conn.NewStream(tc.ctx, &probeDesc.Streams[1], probeEchoMethod, grpc.MaxCallSendMsgSize(2<<20))
			if err != nil {
				t.Fatal(err)
			}
			_ = stream.SendMsg(wrapperspb.String(big)) // may fail once the server has answered
			if err := stream.RecvMsg(new(wrapperspb.StringValue)); status.Code(err) != tc.want {
				t.Errorf("stream message of 1 MiB: %v, want %v", err, tc.want)
			}
		})
	}
	if n := p.calls.Load(); n != 0 {
		t.Errorf("the handler ran %d times", n)
	}
	// Refused calls are logged like the others, without the token.
	text := logs.String()
	if n := strings.Count(text, `"msg":"finished call","protocol":"grpc","grpc.component":"server","grpc.service":"triage.test.Probe"`); n < 6 {
		t.Errorf("logged %d calls, want a line for each refused one:\n%s", n, text)
	}
	if n := strings.Count(text, `"refused_before_read":true`); n != 6 {
		t.Errorf("logged %d refused calls, want 6:\n%s", n, text)
	}
	if strings.Contains(text, probeToken) || strings.Contains(text, otherToken) {
		t.Error("the log holds a token")
	}
}

// dialFrom connects to addr from the loopback address local (127.0.0.2 is
// as much this host as 127.0.0.1, but another peer).
func dialFrom(t *testing.T, addr, local string) *grpc.ClientConn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	return dial(t, addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) { return d.DialContext(ctx, "tcp", addr) }))
}

// TestLimitsWithoutTokensCountPerPeer: without tokens, each peer address
// is a caller with limits of its own; two connections of one peer share
// them, and a peer cannot borrow another's by sending x-forwarded-for.
func TestLimitsWithoutTokensCountPerPeer(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.Limits = server.Limits{Rate: 0.01, Burst: 1}
	_, svc := newProbe()
	addr := serve(t, cfg, nil, nil, svc)
	ctx := context.Background()
	a1, a2, b := dialFrom(t, addr, "127.0.0.1"), dialFrom(t, addr, "127.0.0.1"), dialFrom(t, addr, "127.0.0.2")
	if _, err := call(ctx, a1, "hi"); err != nil {
		t.Fatal(err)
	}
	if _, err := call(ctx, a2, "hi"); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("second connection of 127.0.0.1 = %v, want ResourceExhausted", err)
	}
	spoofed := metadata.AppendToOutgoingContext(ctx, "x-forwarded-for", "127.0.0.9")
	if _, err := call(spoofed, a2, "hi"); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("127.0.0.1 claiming to forward another address = %v, want ResourceExhausted", err)
	}
	if _, err := call(ctx, b, "hi"); err != nil {
		t.Errorf("127.0.0.2, another peer: %v", err)
	}
}

// TestRefusalsAreLoggedWithinABudget: a flood of calls without a token is
// refused on its headers and logged only within the log's budget (a burst,
// then a rate a second on the server's clock); one line later sums up the
// refusals not logged; and the flood does not use up the budget of the
// other refusals (a token refused the service).
func TestRefusalsAreLoggedWithinABudget(t *testing.T) {
	logs := &servertest.LogBuffer{}
	var clock atomic.Int64 // seconds after the epoch; moved by the test only
	var mu sync.Mutex
	var due []func() // the summaries scheduled, run by the test
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.Tokens = tokenTable(t)
	cfg.Now = func() time.Time { return time.Unix(clock.Load(), 0) }
	cfg.AfterFunc = func(_ time.Duration, f func()) func() bool {
		mu.Lock()
		defer mu.Unlock()
		due = append(due, f)
		return func() bool { return false }
	}
	_, svc := newProbe()
	conn := dial(t, serve(t, cfg, logs, nil, svc))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	refuse := func(n int, token string, want codes.Code) {
		for range n {
			if _, err := call(bearer(ctx, token), conn, "hi"); status.Code(err) != want {
				t.Fatalf("a call with token %q: %v, want %v", token, err, want)
			}
		}
	}
	count := func(code string) (lines, notLogged int) {
		for line := range strings.Lines(logs.String()) {
			switch {
			case strings.Contains(line, `"refused_before_read":true`) && strings.Contains(line, `"grpc.code":"`+code+`"`):
				lines++
			case strings.Contains(line, `"msg":"refused calls not logged"`):
				var n int
				if _, err := fmt.Sscanf(line[strings.Index(line, `"refusals_not_logged":`):], `"refusals_not_logged":%d`, &n); err != nil {
					t.Fatalf("%v: %s", err, line)
				}
				notLogged += n
			}
		}
		return lines, notLogged
	}
	refuse(200, "wrong", codes.Unauthenticated)
	if n, _ := count("Unauthenticated"); n != 50 {
		t.Errorf("200 refusals at one instant logged %d lines, want the burst, 50", n)
	}
	refuse(3, otherToken, codes.PermissionDenied)
	if n, _ := count("PermissionDenied"); n != 3 {
		t.Errorf("3 calls refused the service during the flood logged %d lines, want 3", n)
	}
	mu.Lock()
	summaries := due
	mu.Unlock()
	if len(summaries) != 1 {
		t.Fatalf("%d summaries scheduled, want 1", len(summaries))
	}
	summaries[0]()
	if _, notLogged := count("Unauthenticated"); notLogged != 150 {
		t.Errorf("the summary counts %d refusals not logged, want 150", notLogged)
	}
	clock.Add(1) // the budget refills 10 lines
	refuse(1, "wrong", codes.Unauthenticated)
	if n, _ := count("Unauthenticated"); n != 51 {
		t.Errorf("a refusal a second later: %d lines, want 51", n)
	}
}

// TestUnknownMethodsAreRefusedAndLogged: a call of a method the server does
// not serve is refused in grpc's own words (Unimplemented, "unknown
// service"/"unknown method … for service …"), now with the version stamp,
// and logged like any refusal; before, grpc answered it without any
// interceptor seeing it, and the log said nothing. Health and reflection
// are served as before.
func TestUnknownMethodsAreRefusedAndLogged(t *testing.T) {
	logs := &servertest.LogBuffer{}
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	_, svc := newProbe()
	conn := dial(t, serve(t, cfg, logs, nil, svc))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, tc := range []struct{ method, want string }{
		{"/triage.test.Probe/Nope", "unknown method Nope for service triage.test.Probe"},
		{"/nope.Service/Call", "unknown service nope.Service"},
	} {
		err := conn.Invoke(ctx, tc.method, wrapperspb.String("hi"), new(wrapperspb.StringValue))
		if st := status.Convert(err); st.Code() != codes.Unimplemented || st.Message() != tc.want || len(st.Details()) == 0 {
			t.Errorf("%s: %v (details %v), want Unimplemented %q with the version stamp", tc.method, err, st.Details(), tc.want)
		}
	}
	if _, err := call(ctx, conn, "hi"); err != nil {
		t.Errorf("a served method: %v", err)
	}
	if _, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Errorf("health: %v", err)
	}
	text := logs.String()
	for _, want := range []string{`"grpc.service":"triage.test.Probe","grpc.method":"Nope","grpc.code":"Unimplemented"`, `"grpc.service":"nope.Service","grpc.method":"Call","grpc.code":"Unimplemented"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the log lacks %s:\n%s", want, text)
		}
	}
}
