// Package examples holds the polyglot client examples, examples/python and
// examples/node, and the test that runs both against a live `triage serve`:
// each must print, line for line, what the same calls return over Go's gRPC
// client. The test skips an example whose runtime or dependencies are
// missing, unless TRIAGE_TEST_REQUIRE_EXAMPLES=1 (CI) makes that a failure.
// It may import cli, platform and gen (internal/layers_test.go checks).
package examples
