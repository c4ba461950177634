// Package transport builds the TLS configurations of TRIAGE servers and of
// the clients that dial them, and decides which addresses count as loopback
// (the only ones where plaintext is allowed without being asked for, and
// where a client may send a bearer token without TLS).
//
// Both sides require TLS 1.2 or later and use crypto/tls's default cipher
// suites (AEAD with forward secrecy only, in current Go releases). A server
// given a client CA requires and verifies client certificates (mutual TLS).
// Certificates are read once at start; there is no reload.
package transport
