// Package server is the one gRPC server runner every TRIAGE service uses.
//
// A Server registers the services it is given, standard health checking
// (grpc.health.v1, one status per service plus the overall "" entry) and
// server reflection, behind one interceptor chain: structured slog logging
// with the trace id on each line, error-to-status mapping (package grpcerr),
// request validation, and panic recovery last. OpenTelemetry is attached as a
// stats handler with health checks filtered out. Serve runs until its context
// ends, then flips health to NOT_SERVING and stops gracefully, falling back to
// a hard stop after the configured grace period.
package server
