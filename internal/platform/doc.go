// Package platform groups what every service stands on: the gRPC server
// runner (with its TLS, token and limit guards), error kinds and their status
// codes, telemetry, in-process services, TLS configurations and loopback
// rules (transport), request conversion, the decoding of requests that
// carry a pool and a plan (wiredecode), JSON locations and the HTTP/JSON
// gateway. It may import protocol, gen and api (the OpenAPI document).
package platform
