package orchestrator

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
	// Counters, updated as work finishes.
	Total, Done, Skipped, LLMCalls, CacheHits, OutputTokens, Errors atomic.Int64

	start time.Time
}

// line renders the counters with an ETA from the cells done in this process.
func (p *Progress) line(now time.Time) string {
	total, done, skipped := p.Total.Load(), p.Done.Load(), p.Skipped.Load()
	eta := "?"
	if fresh := done - skipped; fresh > 0 && total > done {
		per := now.Sub(p.start) / time.Duration(fresh)
		eta = (per * time.Duration(total-done)).Round(time.Second).String()
	}
	unit := p.Unit
	if unit == "" {
		unit = "cells"
	}
	return fmt.Sprintf("%s %d/%d (%d resumed) · llm calls %d (cache hits %d) · output tokens %d · errors %d · eta %s",
		unit, done, total, skipped, p.LLMCalls.Load(), p.CacheHits.Load(), p.OutputTokens.Load(), p.Errors.Load(), eta)
}

// Report writes the counters to w every interval until stop is closed:
// rewriting one line on a terminal, one log line each time otherwise. It
// writes a final line when stopped.
func (p *Progress) Report(w io.Writer, terminal bool, interval time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			if terminal {
				fmt.Fprintf(w, "\r\033[K%s\n", p.line(time.Now()))
			} else {
				fmt.Fprintf(w, "progress: %s\n", p.line(time.Now()))
			}
			return
		case now := <-t.C:
			if terminal {
				fmt.Fprintf(w, "\r\033[K%s", p.line(now))
			} else {
				fmt.Fprintf(w, "progress: %s\n", p.line(now))
			}
		}
	}
}
