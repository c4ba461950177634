package cli

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// TestMain lets tests run this test binary as the triage command: with
// TRIAGE_TEST_AS_MAIN=1 it runs Run on its arguments and exits, so a test can
// start, kill and restart a real triage process without building one.
func TestMain(m *testing.M) {
	if os.Getenv("TRIAGE_TEST_AS_MAIN") == "1" {
		err := Run(context.Background(), os.Args[1:], Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
		if err != nil {
			fmt.Fprintln(os.Stderr, "triage:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
