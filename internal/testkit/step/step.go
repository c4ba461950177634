package step

import "testing"

// Run runs f as the subtest name of t and, if it failed, stops t: the
// steps after it would only fail for the same reason.
func Run(t *testing.T, name string, f func(t *testing.T)) {
	t.Helper()
	if !t.Run(name, f) {
		t.FailNow()
	}
}
