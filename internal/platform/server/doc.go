// Package server is the one gRPC server runner every TRIAGE service uses.
//
// A Server registers the services it is given, standard health checking
// (grpc.health.v1, one status per service plus the overall "" entry) and
// server reflection. Each call first meets the tap (tap.go), on its headers
// alone, before grpc reads any of its messages: bearer-token authentication
// with per-service grants (tokens.go, auth.go), so a call without a valid
// token costs its headers and nothing more; the caller's name (its token's,
// or, without tokens, its peer address: peers.go); and the start of its
// idle watch (idle.go), which ends a call whose client keeps the server
// waiting longer than Deadlines.Idle. Then one interceptor chain:
// structured slog logging with the trace id on each line, error-to-status
// mapping (package grpcerr), the guards — a default deadline for calls
// without one (deadlines.go), per-caller rate and concurrency limits (the
// middleware's ratelimit interceptor with a token bucket; limits.go) —
// request validation, and panic recovery last. Health checks need no token
// and pass no guard. Server.Admit applies the token rule and counts the
// call against its caller's limits for a front end of the process (the
// HTTP/JSON gateway) before it reads a body.
// Config.TLS serves TLS or mutual TLS. OpenTelemetry is attached as a stats
// handler with health checks filtered out.
//
// A call's goroutine gets the stack a call through the whole chain needs in
// one growth, before the stats handler runs (stack.go). Requests carrying a
// pool and a plan are decoded by package wiredecode, the others by
// proto.Unmarshal. A request that cannot be decoded is the caller's fault and
// is answered InvalidArgument (see readingCodec), and a unary response over the size
// limit fails inside the chain, so its log line carries the
// ResourceExhausted the caller gets.
//
// Serve runs until its context ends, then drains (health reports
// NOT_SERVING while calls are still served), stops gracefully, and falls
// back to a hard stop after the configured grace period.
package server
