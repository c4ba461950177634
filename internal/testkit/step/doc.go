// Package step splits a long end-to-end test into named steps: each step
// is a subtest, so a failure names the step it happened in (go test -v
// lists them, -run selects up to one), and a failed step stops the test,
// because every later step builds on what the earlier ones did.
// Imported by tests only.
package step
