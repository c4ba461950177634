// Package examples holds the polyglot client examples, examples/python and
// examples/node, and the test that runs them against a live `triage serve`:
// each must print, line for line, what the same calls return over Go's gRPC
// client. The Python example runs twice: with the checkout on PYTHONPATH,
// and with the interpreter of a virtual environment made by the install
// commands of clients/python/README.md, run as written. The test skips an
// example whose runtime or dependencies are missing, unless
// TRIAGE_TEST_REQUIRE_EXAMPLES=1 (CI) makes that a failure.
//
// examples/own-model holds the run config and endpoints file of the README's
// "Evaluate your own model"; internal/cli's TestReadmeOwnModel runs that
// section's commands on them.
//
// It may import cli, platform and gen (internal/layers_test.go checks).
package examples
