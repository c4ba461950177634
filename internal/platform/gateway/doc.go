// Package gateway is the HTTP/JSON front of the services: a grpc-gateway v2
// reverse proxy, generated from the google.api.http annotations in
// proto/triage/v1, that turns each HTTP request into a gRPC call on a client
// connection and the answer back into JSON. Calls go through the gRPC
// server's whole interceptor chain, so validation, error mapping, logging
// and whatever else the server enforces apply to HTTP callers unchanged; an
// HTTP Authorization header reaches the server as the "authorization"
// metadata key.
//
// The JSON is protojson's, both ways:
//
//   - Responses use the proto3 JSON names (lowerCamelCase, as grpcurl prints
//     them), emit fields with zero values too (so "overBudget": false is
//     there to read), print enums by name and 64-bit integers as strings.
//   - Requests may name fields either way ("problemIds" or "problem_ids").
//     An unknown field is an error (HTTP 400), not silently dropped, and so
//     is a query parameter that names no field the route reads (any, on a
//     route whose request is its body or has no field), with a
//     google.rpc.BadRequest naming it (unboundQuery).
//   - Errors are google.rpc.Status objects: {"code": 3, "message": …,
//     "details": [{"@type": "type.googleapis.com/google.rpc.BadRequest",
//     "fieldViolations": [{"field": …, "description": …}]}]}, with the HTTP
//     status grpc-gateway maps the gRPC code to (InvalidArgument is 400).
//   - A server-streaming RPC answers newline-delimited JSON, one
//     {"result": message} per line, or {"error": status} last; a
//     client-streaming one reads request messages one after another from
//     the body.
//
// With Options.Admit, the mux applies the gRPC server's token rule, and its
// caller's limit on calls admitted, to every request from its headers
// (auth.go), before anything reads its body, so a request without a valid
// token, or over its caller's limit, costs its headers and nothing more, as
// on the gRPC port, and a request being read counts against its caller as a
// gRPC call being read does; /healthz is open and /openapi.json follows
// reflection's rule.
//
// Serve runs the HTTP server in front of the mux (http.go): TLS with the
// gRPC listener's configuration (client certificates included), a cap on
// every request body and a minimum rate for it (HTTP 408 below it), read
// and write deadlines per call, and the same drain and graceful stop as the
// gRPC server.
package gateway
