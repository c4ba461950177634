package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Interrupts returns the contexts the first and the second interrupt
// (SIGINT or SIGTERM) of the process end, each with the signal as its
// cause: the first asks the command to stop (Env.Stop: a command making
// model calls lets those in flight be answered and stored), the second
// abandons them (the context given to Run); a third kills the process.
// release stops catching the signals.
func Interrupts() (stop, abandon context.Context, release func()) {
	stop, stopWith := context.WithCancelCause(context.Background())
	abandon, abandonWith := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for n := 0; n < 2; n++ {
			select {
			case s := <-sigs:
				if n == 0 {
					stopWith(fmt.Errorf("%v signal received", s))
				} else {
					abandonWith(fmt.Errorf("%v signal received again", s))
					// A third interrupt kills the process, as without
					// a handler.
					signal.Stop(sigs)
				}
			case <-done:
				return
			}
		}
	}()
	return stop, abandon, func() {
		signal.Stop(sigs)
		close(done)
	}
}
