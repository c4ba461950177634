package cli

import (
	"fmt"
	"os"
	"testing"

	"github.com/triage-eval/triage/internal/testkit/leakcheck"
)

// TestMain lets tests run this test binary as the triage command: with
// TRIAGE_TEST_AS_MAIN=1 it runs Run on its arguments and exits, so a test can
// start, interrupt, kill and restart a real triage process without building
// one. As in cmd/triage, the first SIGINT or SIGTERM asks the command to stop
// and the second abandons it (Interrupts). Otherwise it runs the tests and
// fails if they leave a goroutine running.
func TestMain(m *testing.M) {
	if os.Getenv("TRIAGE_TEST_AS_MAIN") == "1" {
		stop, abandon, release := Interrupts()
		err := Run(abandon, os.Args[1:], Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Stop: stop})
		release()
		if err != nil {
			fmt.Fprintln(os.Stderr, "triage:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	leakcheck.VerifyTestMain(m)
}
