// Package externaltest decides, for tests, whether a test that needs a
// program outside Go — Chromium, Node.js, a Python with grpcio, curl —
// runs, skips or fails. One environment variable per family of programs
// says which (the test names it):
//
//   - "1": required. A missing program fails the test (CI, .ci/run).
//   - "0": not wanted. The test skips even where the program is installed
//     (make check, the everyday check that needs none of them).
//   - unset or anything else: the test runs where the program is
//     installed and skips, saying how to install it, where it is not.
//
// It is imported by tests only.
package externaltest
