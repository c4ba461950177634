package leakcheck

import (
	"testing"

	"go.uber.org/goleak"
)

// VerifyTestMain runs the tests of m and fails the binary if a goroutine
// they started is still running afterwards. opts are a package's own
// ignores (goleak.IgnoreTopFunction…), each with its reason beside it;
// goroutines of other modules that outlive every test by design would be
// ignored here, once for the module. When the check was added the tests
// of every package it covers left none, so there are none yet.
func VerifyTestMain(m *testing.M, opts ...goleak.Option) {
	goleak.VerifyTestMain(m, opts...)
}
