// Package apperr defines the error kinds the domain code returns, free of any
// transport: invalid arguments with one violation per field, missing records,
// unmet preconditions and unavailable dependencies. Package grpcerr maps them
// to gRPC status codes in one place; the CLI prints them as they are.
package apperr
