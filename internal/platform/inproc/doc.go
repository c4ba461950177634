// Package inproc runs services in the calling process behind the real server
// runner (interceptors, validation, health) on an in-memory bufconn
// listener, so commands compose services through their gRPC clients exactly
// as they would remote ones.
package inproc
