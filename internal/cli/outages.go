package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
)

// outageWarnAfter is how long a remote service may be unreachable before a
// command says so: its calls wait for the service to come back (waitForReady
// in serviceConfig) and would otherwise wait in silence.
const outageWarnAfter = 10 * time.Second

// watchOutages writes a line to w when the connection cc to what (e.g.
// "planner service at host:port") has failed to connect for after, and
// another when it is back, until cc is closed. now is the clock the
// outage's length is measured with. On a terminal each line first clears
// the live progress line it would otherwise be appended to.
func watchOutages(cc *grpc.ClientConn, what string, w io.Writer, after time.Duration, now func() time.Time) {
	eraseLine := eraseLineOn(w)
	var downSince time.Time
	warned := false
	for s := cc.GetState(); s != connectivity.Shutdown; s = cc.GetState() {
		switch {
		case s == connectivity.Ready:
			if warned {
				fmt.Fprintf(w, "%s%s answers again after %v\n", eraseLine, what, now().Sub(downSince).Round(time.Second))
			}
			downSince, warned = time.Time{}, false
		case s == connectivity.TransientFailure && downSince.IsZero():
			downSince = now()
		}
		if downSince.IsZero() || warned {
			cc.WaitForStateChange(context.Background(), s)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), after-now().Sub(downSince))
		changed := cc.WaitForStateChange(ctx, s)
		cancel()
		if !changed {
			warned = true
			fmt.Fprintf(w, "%swarning: %s has not answered for %v; calls wait for it to come back (interrupt to stop: twice for run, baseline and budget-aware, whose first interrupt waits for the calls in flight)\n", eraseLine, what, after)
		}
	}
}

// eraseLineOn returns what clears the live progress line on w before a
// line is written: nothing unless w is a terminal.
func eraseLineOn(w io.Writer) string {
	if isTerminal(w) {
		return "\r\033[K"
	}
	return ""
}

// warnLine returns a function writing "warning: MSG" lines to w, each on a
// line of its own even under a live progress line.
func warnLine(w io.Writer) func(msg string) {
	eraseLine := eraseLineOn(w)
	return func(msg string) { fmt.Fprintf(w, "%swarning: %s\n", eraseLine, msg) }
}
