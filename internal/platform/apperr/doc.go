// Package apperr defines the error kinds the domain code returns, free of any
// transport: invalid arguments with one violation per field, missing records,
// unmet preconditions, unavailable dependencies, missing or insufficient
// credentials and exhausted per-caller limits. Package grpcerr maps them
// to gRPC status codes in one place; the CLI prints them as they are.
package apperr
