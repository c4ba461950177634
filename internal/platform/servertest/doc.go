// Package servertest starts a full server.Server (the production interceptor
// chain, health and reflection) on an in-memory bufconn listener for tests
// and benchmarks, and hands back a client connection to it.
package servertest
