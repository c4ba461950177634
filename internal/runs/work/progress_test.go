package work

import (
	"strings"
	"testing"
	"time"
)

// TestProgressETA: no ETA before there is a rate (never started, too few
// units, too soon) nor once everything is done, a plain one otherwise.
func TestProgressETA(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &Progress{}
	p.Total.Store(100)
	p.Done.Store(10)
	if line := p.line(t0); !strings.HasSuffix(line, "errors 0") {
		t.Errorf("not started: %q", line)
	}
	p.Start(t0)
	p.Start(t0.Add(time.Hour)) // a second Start does not move it
	p.Done.Store(2)
	if line := p.line(t0.Add(time.Minute)); !strings.HasSuffix(line, "errors 0") {
		t.Errorf("two units done: %q", line)
	}
	p.Done.Store(10)
	if line := p.line(t0.Add(time.Second)); !strings.HasSuffix(line, "errors 0") {
		t.Errorf("one second in: %q", line)
	}
	// 10 done in 20 s, 90 left: 3 minutes.
	if line := p.line(t0.Add(20 * time.Second)); !strings.HasSuffix(line, "errors 0 · ETA 3m0s") {
		t.Errorf("with a rate: %q", line)
	}
	// Resumed units are no rate.
	p.Skipped.Store(9)
	if line := p.line(t0.Add(20 * time.Second)); !strings.HasSuffix(line, "errors 0") {
		t.Errorf("one fresh unit: %q", line)
	}
	// Everything done: nothing left to estimate.
	p.Skipped.Store(0)
	p.Done.Store(100)
	if line := p.line(t0.Add(time.Minute)); !strings.HasSuffix(line, "errors 0") || strings.Contains(line, "?") {
		t.Errorf("all done: %q", line)
	}
}

// TestProgressWaitingForHeldUnits: once every unit left is held by other
// workers, the line says so instead of an ETA from this worker's rate
// (which read "ETA 0s" for as long as a dead worker's lease); while some
// are still this worker's to do, the ETA stays.
func TestProgressWaitingForHeldUnits(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &Progress{}
	p.Start(t0)
	p.Total.Store(100)
	p.Done.Store(84)
	p.Held.Store(10)
	if line := p.line(t0.Add(time.Minute)); !strings.Contains(line, "· ETA ") {
		t.Errorf("16 left, 10 held: %q, want an ETA", line)
	}
	p.Held.Store(16)
	line := p.line(t0.Add(time.Minute))
	if strings.Contains(line, "ETA") || !strings.HasSuffix(line, "· waiting for 16 cells other workers hold (stored by them, or taken over when their leases end)") {
		t.Errorf("16 left, all held: %q", line)
	}
}
