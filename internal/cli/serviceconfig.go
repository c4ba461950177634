package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// serviceConfig is the gRPC service config of every client this binary
// dials. Its calls are balanced over every address the service's name
// resolves to (round_robin): one address for a host or a ClusterIP
// Service, each pod for a headless one, re-resolved when a server ends a
// connection (server.Config.MaxConnectionAge) or one fails, so that the
// Scoring service and a grid's workers spread their calls over every
// replica of the services they call, new ones included. For every method
// ("name": [{}]):
//
//   - waitForReady: a call made while its service is unreachable — restarting,
//     say — waits for it to come back instead of failing at once; the call's
//     deadline, if it has one, bounds the wait.
//   - retryPolicy: a call that fails with Unavailable — the server went away
//     mid-call, or refused it while stopping — is tried again, up to 5
//     attempts in all (grpc-go's ceiling), after a random wait of up to
//     0.1 s, 0.2 s, 0.4 s, 0.8 s (exponential, at most 2 s), never beyond
//     the call's deadline. Unavailable answered by a service itself (a
//     model endpoint still down after the LLM gateway's retries) carries a
//     no-retry pushback (grpcerr) and is not retried. ResourceExhausted
//     from a caller's rate or queue limit (server.Limits) carries a pushback
//     of the limit's retry delay and is tried again after it; any other
//     ResourceExhausted (a message over the size limit) carries a no-retry
//     pushback.
//
// Every call is safe to repeat: ComputeReferences, ExecutePlan, the lists
// and CreatePlan compute or read (a repeated CreatePlan is answered from the
// Planner's response cache when the model had answered); ImportGroundTruth
// is one transaction of idempotent upserts, so a replay after a lost answer
// changes nothing (grpc replays a client stream only while it has sent less
// than retryBufferBytes); RunBaseline is retried only before its first event
// (grpc never retries a stream that has received a message), and re-running
// a baseline skips what is stored. No retry throttling: a restarting service
// fails every call in flight at once, which is exactly when retries must go
// on.
const serviceConfig = `{
  "loadBalancingConfig": [{"round_robin": {}}],
  "methodConfig": [{
    "name": [{}],
    "waitForReady": true,
    "retryPolicy": {
      "maxAttempts": 5,
      "initialBackoff": "0.1s",
      "maxBackoff": "2s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED"]
    }
  }]
}`

// reconnectBackoff makes a client reconnect to a restarted service within
// about a second (grpc's default backs off to 2 minutes).
var reconnectBackoff = grpc.ConnectParams{
	Backoff:           backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: time.Second},
	MinConnectTimeout: 5 * time.Second,
}

// retryBufferBytes is how much of a call's requests grpc keeps to replay
// it: as much as a server accepts in one message (server.DefaultConfig),
// so that a large CreatePlan stays retryable (grpc's default, 256 KiB,
// commits a call, and gives up retrying it, once it has sent more).
const retryBufferBytes = 16 << 20

// resilientOptions are the dial options that let a client ride through a
// restart of the service it calls.
func resilientOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithDefaultServiceConfig(serviceConfig),
		grpc.WithConnectParams(reconnectBackoff),
		// Answers as large as a server sends by default (16 MiB, as
		// retryBufferBytes), not grpc's 4 MiB.
		grpc.WithDefaultCallOptions(grpc.MaxRetryRPCBufferSize(retryBufferBytes), grpc.MaxCallRecvMsgSize(retryBufferBytes)),
	}
}

// readyTimeout is how long a command waits, when it starts, for a remote
// service to answer.
const readyTimeout = 10 * time.Second

// awaitService returns nil once the service behind cc answers a health
// check (whatever its status), or, after timeout, why it does not. Calls
// wait for ready (serviceConfig) to ride through restarts; a service that
// is down when a command starts is reported instead of waited for. A
// connection that fails with an error no retry can cure (misconfigured:
// the two ends disagree on TLS, or a certificate does not verify; the
// check's retry policy has tried it a few times already) is reported at
// once, not after timeout.
func awaitService(cc grpc.ClientConnInterface, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	health := healthpb.NewHealthClient(cc)
	why := "no answer"
	for {
		_, err := health.Check(ctx, &healthpb.HealthCheckRequest{}, grpc.WaitForReady(false))
		switch status.Code(err) {
		case codes.Unavailable:
			why = status.Convert(err).Message() // the connection's error
			if misconfigured(why) {
				return fmt.Errorf("refuses the connection: %s%s", why, transportHint(why))
			}
		case codes.DeadlineExceeded:
		default:
			return nil // it answered (a server without health checks says Unimplemented)
		}
		t := time.NewTimer(200 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("does not answer within %v: %s%s", timeout, why, transportHint(why))
		case <-t.C:
		}
	}
}

// checkServes returns nil when the server behind cc, which answers, serves
// the gRPC service named service (its health knows the name, whatever the
// status) or has no health service; else why not, as when an address is
// that of another of the services (a server answers NotFound for a
// service it does not serve).
func checkServes(cc grpc.ClientConnInterface, service string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := healthpb.NewHealthClient(cc).Check(ctx, &healthpb.HealthCheckRequest{Service: service})
	if status.Code(err) == codes.NotFound {
		return fmt.Errorf("answers but does not serve %s: is it the address of another service?", service)
	}
	return nil
}

// transportHint says what a connection error most likely means when its
// text is that of a client and a server that disagree on TLS, or of a
// certificate that does not verify; "" else. The TLS alerts come first: a
// server's refusal of the client's certificate arrives as the preface's
// read error.
func transportHint(why string) string {
	switch {
	case strings.Contains(why, "x509: certificate is valid for"):
		return " (the certificate names other hosts: dial a name it is valid for, or give that name with --tls-server-name)"
	case strings.Contains(why, "x509: certificate signed by unknown authority"):
		return " (the certificate does not chain to a CA this client trusts: give the server's CA with --tls-ca)"
	case strings.Contains(why, "remote error: tls: certificate required"):
		return " (the server requires a client certificate: give one with --tls-cert and --tls-key)"
	case strings.Contains(why, "error reading server preface"):
		return " (the server closed the connection before speaking HTTP/2, as a TLS server does to a plaintext client: if it serves TLS, dial with --tls or --tls-ca)"
	case strings.Contains(why, "first record does not look like a TLS handshake"):
		return " (the server answered in plaintext: if it serves no TLS, dial without the --tls flags)"
	}
	return ""
}

// misconfigured reports whether why, a connection's error, says that a
// server answered and the two ends disagree (on TLS, or on whom to trust)
// rather than that the server is down or restarting: no retry cures it, so
// a command says so at once instead of waiting out its readiness timeout.
// A connection closed before HTTP/2 (what a TLS server does to a plaintext
// client) is not among them: a TCP proxy whose backend is restarting (a
// port-forward, say) closes it the same way, and that one a wait cures.
func misconfigured(why string) bool {
	for _, s := range []string{"tls: failed to verify certificate", "x509: ", "remote error: tls: ", "first record does not look like a TLS handshake"} {
		if strings.Contains(why, s) {
			return true
		}
	}
	return false
}
