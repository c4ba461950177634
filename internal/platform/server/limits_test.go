package server_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
)

func TestRateLimitPerCaller(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Tokens = tokenTable(t)
	cfg.Limits = server.Limits{Rate: 0.5, Burst: 2}
	_, svc := newProbe()
	conn := dial(t, serve(t, cfg, nil, nil, svc))
	ctx := context.Background()

	for i := range 2 {
		if _, err := call(bearer(ctx, probeToken), conn, "hi"); err != nil {
			t.Fatalf("call %d within the burst: %v", i, err)
		}
	}
	var trailer metadata.MD
	_, err := call(bearer(ctx, probeToken), conn, "hi", grpc.Trailer(&trailer))
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("third call = %v, want ResourceExhausted", err)
	}
	// The limiter's own words, not the middleware's ("… is rejected by
	// grpc_ratelimit middleware, please retry later.").
	if msg := status.Convert(err).Message(); !strings.HasPrefix(msg, "the caller's rate limit (") || strings.Contains(msg, "middleware") {
		t.Errorf("message %q; want the limiter's own", msg)
	}
	// The bucket refills one call every 2 s.
	d, ok := grpcerr.RetryDelay(err)
	if !ok || d <= time.Second || d > 2*time.Second {
		t.Errorf("RetryInfo delay = %v, %v; want about 2s", d, ok)
	}
	if ms, err := strconv.Atoi(first(trailer.Get("grpc-retry-pushback-ms"))); err != nil || ms <= 1000 || ms > 2000 {
		t.Errorf("grpc-retry-pushback-ms = %q", trailer.Get("grpc-retry-pushback-ms"))
	}
	// Another token has its own bucket; health checks are never limited.
	if _, err := call(bearer(ctx, allToken), conn, "hi"); err != nil {
		t.Errorf("another token: %v", err)
	}
	for range 5 {
		if _, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
			t.Fatalf("health: %v", err)
		}
	}
	// Calls without a valid token are refused before the limiter.
	if _, err := call(ctx, conn, "hi"); status.Code(err) != codes.Unauthenticated {
		t.Errorf("no token = %v", err)
	}
	// Streams are limited too.
	if _, err := callStream(bearer(ctx, probeToken), conn); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("stream over the limit = %v", err)
	} else if _, ok := grpcerr.RetryDelay(err); !ok {
		t.Errorf("stream refusal without RetryInfo: %v", err)
	}
}

// TestOnePeerSharesOneBucket: without tokens, the connections of one peer
// address are one caller (TestLimitsWithoutTokensCountPerPeer shows
// another peer is not).
func TestOnePeerSharesOneBucket(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Limits = server.Limits{Rate: 0.1, Burst: 1}
	_, svc := newProbe()
	addr := serve(t, cfg, nil, nil, svc)
	a, b := dial(t, addr), dial(t, addr)
	if _, err := call(context.Background(), a, "hi"); err != nil {
		t.Fatal(err)
	}
	if _, err := call(context.Background(), b, "hi"); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("second connection of the same peer = %v, want ResourceExhausted", err)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Tokens = tokenTable(t)
	cfg.Limits = server.Limits{MaxConcurrent: 2}
	p, svc := newProbe()
	conn := dial(t, serve(t, cfg, nil, nil, svc))
	ctx := bearer(context.Background(), probeToken)

	// Two calls run; eight more (4 per slot) wait; the eleventh is refused.
	results := make(chan error, 10)
	for range 10 {
		go func() {
			_, err := call(ctx, conn, "hold")
			results <- err
		}()
	}
	waitFor(t, func() bool { return p.holding.Load() == 2 })
	time.Sleep(50 * time.Millisecond) // let the other eight queue
	if n := p.holding.Load(); n != 2 {
		t.Fatalf("%d calls running, want 2", n)
	}
	_, err := call(ctx, conn, "hold")
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("eleventh call = %v, want ResourceExhausted", err)
	}
	if d, ok := grpcerr.RetryDelay(err); !ok || d != server.QueueFullRetry {
		t.Errorf("RetryInfo = %v, %v", d, ok)
	}
	// Another token is not held up.
	if _, err := call(bearer(context.Background(), allToken), conn, "hi"); err != nil {
		t.Errorf("another token: %v", err)
	}
	// A waiting call gives up at its deadline.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := call(short, conn, "hi"); status.Code(err) != codes.ResourceExhausted && status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("call with a short deadline = %v", err)
	}
	// Released, the queue drains: every held call completes.
	close(p.release)
	for range 10 {
		if err := <-results; err != nil {
			t.Errorf("queued call: %v", err)
		}
	}
}

// TestTokenOwnLimits: a token's own limits (its line's options) replace the
// server's for its calls alone — a service's token on its upstreams gets
// room for every caller of the service — a token's limit takes effect on a
// server that sets none, max_concurrent=0 lifts the server's, and a
// token's rate comes with its own burst.
func TestTokenOwnLimits(t *testing.T) {
	const freeToken = "free-token-0b7c"
	file := server.HashToken(probeToken) + " probe prober max_concurrent=4\n" +
		server.HashToken(otherToken) + " probe other rate=0.01 burst=3\n" +
		server.HashToken(freeToken) + " probe free max_concurrent=0\n" +
		server.HashToken(allToken) + " *\n"
	tokens, err := server.ParseTokens("tokens.txt", strings.NewReader(file), []string{"probe", "oracle"})
	if err != nil {
		t.Fatal(err)
	}
	// hold starts n "hold" calls of token and waits until want of them run
	// and stay running; the calls end when p.release closes.
	hold := func(t *testing.T, p *probe, conn *grpc.ClientConn, token string, n int, want int64, ended chan<- error) {
		t.Helper()
		before := p.holding.Load()
		for range n {
			go func() {
				_, err := call(bearer(context.Background(), token), conn, "hold")
				ended <- err
			}()
		}
		waitFor(t, func() bool { return p.holding.Load() == before+want })
		time.Sleep(50 * time.Millisecond)
		if got := p.holding.Load() - before; got != want {
			t.Errorf("%d of %d calls running, want %d", got, n, want)
		}
	}
	for _, tc := range []struct {
		name   string
		server server.Limits
		others int64 // calls of a token without limits of its own that run, of 2
	}{
		{"on a server with limits", server.Limits{MaxConcurrent: 1}, 1},
		{"on a server without", server.Limits{}, 2},
	} {
		t.Run("concurrency "+tc.name, func(t *testing.T) {
			cfg := server.DefaultConfig()
			cfg.Tokens = tokens
			cfg.Limits = tc.server
			p, svc := newProbe()
			conn := dial(t, serve(t, cfg, nil, nil, svc))
			ended := make(chan error, 10)
			hold(t, p, conn, probeToken, 5, 4, ended)       // its own limit, 4
			hold(t, p, conn, freeToken, 3, 3, ended)        // max_concurrent=0: none
			hold(t, p, conn, allToken, 2, tc.others, ended) // the server's
			close(p.release)
			for range 10 {
				if err := <-ended; err != nil {
					t.Errorf("held call: %v", err)
				}
			}
		})
	}
	t.Run("a rate and its burst on a server without limits", func(t *testing.T) {
		cfg := server.DefaultConfig()
		cfg.Tokens = tokens
		cfg.Limits = server.Limits{}
		_, svc := newProbe()
		conn := dial(t, serve(t, cfg, nil, nil, svc))
		ctx := bearer(context.Background(), otherToken)
		for i := range 3 {
			if _, err := call(ctx, conn, "hi"); err != nil {
				t.Fatalf("call %d within the token's burst of 3: %v", i+1, err)
			}
		}
		_, err := call(ctx, conn, "hi")
		if status.Code(err) != codes.ResourceExhausted || !strings.Contains(status.Convert(err).Message(), "(0.01 calls/s, burst 3)") {
			t.Errorf("fourth call = %v, want ResourceExhausted naming the token's rate and burst", err)
		}
		for range 4 {
			if _, err := call(bearer(context.Background(), allToken), conn, "hi"); err != nil {
				t.Errorf("a token without limits: %v", err)
			}
		}
	})
	t.Run("a token's rate, not the server's burst", func(t *testing.T) {
		cfg := server.DefaultConfig()
		cfg.Tokens = tokens
		cfg.Limits = server.Limits{Rate: 100, Burst: 40}
		_, svc := newProbe()
		conn := dial(t, serve(t, cfg, nil, nil, svc))
		ctx := bearer(context.Background(), otherToken)
		for range 3 {
			if _, err := call(ctx, conn, "hi"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := call(ctx, conn, "hi"); status.Code(err) != codes.ResourceExhausted {
			t.Errorf("fourth call = %v, want ResourceExhausted (the token's burst of 3, not the server's 40)", err)
		}
	})
}

// waitFor polls cond until it holds; the minute is only a hang bound.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in a minute")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func first(vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	return vals[0]
}

// TestWatchCountsAgainstItsCaller: health Watch streams count against their
// caller's calls admitted (5 × MaxConcurrent), so that no caller can hold
// the server's memory with them, while Check, what probes send, is never
// limited.
func TestWatchCountsAgainstItsCaller(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Limits = server.Limits{MaxConcurrent: 1}
	_, svc := newProbe()
	conn := dial(t, serve(t, cfg, nil, nil, svc))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	health := healthpb.NewHealthClient(conn)
	most := (1 + server.QueuedPerSlot) * cfg.Limits.MaxConcurrent
	for i := range most + 1 {
		stream, err := health.Watch(ctx, &healthpb.HealthCheckRequest{})
		if err == nil {
			_, err = stream.Recv()
		}
		switch {
		case i < most && err != nil:
			t.Fatalf("Watch %d of the %d a caller may hold: %v", i+1, most, err)
		case i == most && status.Code(err) != codes.ResourceExhausted:
			t.Fatalf("Watch %d, beyond the caller's %d: %v, want ResourceExhausted", i+1, most, err)
		}
	}
	if resp, err := health.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("Check with the caller's Watch streams all held: %v, %v, want SERVING", resp, err)
	}
}
