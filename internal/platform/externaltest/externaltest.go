package externaltest

import (
	"os"
	"testing"
)

// Variables that name a family of programs.
const (
	// Chromium: the headless browser that checks report.html.
	Chromium = "TRIAGE_TEST_REQUIRE_CHROMIUM"
	// Examples: what the examples and the README's HTTP/JSON examples run
	// on — Node.js and the built TypeScript client, a Python with grpcio,
	// curl.
	Examples = "TRIAGE_TEST_REQUIRE_EXAMPLES"
)

// Wanted skips tb when variable is "0"; call it before looking for the
// program.
func Wanted(tb testing.TB, variable string) {
	tb.Helper()
	if os.Getenv(variable) == "0" {
		tb.Skipf("%s=0: tests that need programs outside Go are not wanted (make check)", variable)
	}
}

// Missing ends tb for a program that cannot run, why saying what is
// missing and how to install it: a failure when variable is "1", else a
// skip.
func Missing(tb testing.TB, variable, why string) {
	tb.Helper()
	if os.Getenv(variable) == "1" {
		tb.Fatalf("%s (%s=1 requires it)", why, variable)
	}
	tb.Skipf("%s; set %s=1 to make this a failure", why, variable)
}
