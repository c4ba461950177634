// Command triage runs the TRIAGE services and tools; see 'triage help'.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/triage-eval/triage/internal/cli"
)

func main() {
	stop, abandon, release := cli.Interrupts()
	err := run(abandon, stop)
	release()
	if err != nil {
		fmt.Fprintln(os.Stderr, "triage:", err)
		if errors.Is(err, cli.ErrUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(ctx, stop context.Context) error {
	return cli.Run(ctx, os.Args[1:], cli.Env{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Getenv: os.Getenv,
		Stop:   stop,
	})
}
