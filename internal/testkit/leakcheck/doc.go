// Package leakcheck checks that a package's tests leave no goroutine
// running (go.uber.org/goleak), with the module's one list of goroutines
// that are known not to be leaks and why.
//
// A package whose code starts goroutines calls it from TestMain:
//
//	func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
//
// After every test of the binary has run, goleak waits for the goroutines
// started by the tests to end; one still running fails the binary with its
// stack. Imported by tests only.
package leakcheck
