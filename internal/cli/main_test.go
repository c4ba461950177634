package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/triage-eval/triage/internal/testkit/leakcheck"
)

// TestMain lets tests run this test binary as the triage command: with
// TRIAGE_TEST_AS_MAIN=1 it runs Run on its arguments and exits, so a test can
// start, kill and restart a real triage process without building one. As in
// cmd/triage, SIGINT and SIGTERM end the command's context. Otherwise it
// runs the tests and fails if they leave a goroutine running.
func TestMain(m *testing.M) {
	if os.Getenv("TRIAGE_TEST_AS_MAIN") == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := Run(ctx, os.Args[1:], Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
		stop()
		if err != nil {
			fmt.Fprintln(os.Stderr, "triage:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	leakcheck.VerifyTestMain(m)
}
