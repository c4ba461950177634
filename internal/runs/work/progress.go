package work

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// Progress counts what a run has done; safe for concurrent use.
type Progress struct {
	// Unit names what Total and Done count; "" means "cells".
	Unit string
	// Counters, updated as work finishes. Skipped counts the units found
	// done and fresh; Stale those recomputed because their inputs changed;
	// Retried those recomputed because their last attempt failed.
	Total, Done, Skipped, Stale, Retried, LLMCalls, CacheHits, OutputTokens, Errors atomic.Int64
	// Held counts the units left that other workers hold (Run sets it
	// between its passes): this worker waits for them to be stored, or for
	// their holders' leases to end.
	Held atomic.Int64

	start atomic.Int64 // unix nanoseconds; 0 until Start
}

// line renders the counters, then "· ETA 3m0s" from the rate of the units
// done in this process (resumed ones do not count). There is no ETA, and
// the line ends at the errors, until there is a rate (at least
// minRateUnits units done, minRateTime after the start) and after the
// last unit is done.
func (p *Progress) line(now time.Time) string {
	total, done, skipped := p.Total.Load(), p.Done.Load(), p.Skipped.Load()
	unit := p.Unit
	if unit == "" {
		unit = "cells"
	}
	line := fmt.Sprintf("%s %d/%d (%d resumed, %d stale recomputed, %d failed retried) · llm calls %d (cache hits %d) · output tokens %d · errors %d",
		unit, done, total, skipped, p.Stale.Load(), p.Retried.Load(), p.LLMCalls.Load(), p.CacheHits.Load(), p.OutputTokens.Load(), p.Errors.Load())
	start := p.start.Load()
	elapsed := now.Sub(time.Unix(0, start))
	if held := p.Held.Load(); held > 0 && held >= total-done {
		// Nothing left to do here: an ETA from this worker's rate would
		// say "0s" while it waits, as long as a dead worker's lease.
		return line + fmt.Sprintf(" · waiting for %d %s other workers hold (stored by them, or taken over when their leases end)", held, unit)
	}
	if fresh := done - skipped; start != 0 && fresh >= minRateUnits && elapsed >= minRateTime && total > done {
		per := elapsed / time.Duration(fresh)
		line += " · ETA " + (per * time.Duration(total-done)).Round(time.Second).String()
	}
	return line
}

// An ETA needs a rate: this many units done, this long after the start.
const (
	minRateUnits = 3
	minRateTime  = 2 * time.Second
)

// setHeld sets Held; a nil Progress counts nothing.
func (p *Progress) setHeld(n int) {
	if p != nil {
		p.Held.Store(int64(n))
	}
}

// Start records when the work began, for the ETA; the runners call it, and
// Report calls it when nobody has.
func (p *Progress) Start(now time.Time) {
	p.start.CompareAndSwap(0, now.UnixNano())
}

// Report writes the counters to w every interval until stop is closed:
// rewriting one line on a terminal, one log line each time otherwise. It
// writes a final line when stopped. Until Total is set (the services and
// endpoints are being checked) it writes nothing.
func (p *Progress) Report(w io.Writer, terminal bool, interval time.Duration, stop <-chan struct{}) {
	p.Start(time.Now())
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			if p.Total.Load() == 0 {
				return // it stopped while checking: nothing to count
			}
			if terminal {
				fmt.Fprintf(w, "\r\033[K%s\n", p.line(time.Now()))
			} else {
				fmt.Fprintf(w, "progress: %s\n", p.line(time.Now()))
			}
			return
		case now := <-t.C:
			if p.Total.Load() == 0 {
				continue // still checking the services and endpoints
			}
			if terminal {
				fmt.Fprintf(w, "\r\033[K%s", p.line(now))
			} else {
				fmt.Fprintf(w, "progress: %s\n", p.line(now))
			}
		}
	}
}
