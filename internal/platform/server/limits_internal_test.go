package server

import (
	"fmt"
	"testing"
	"time"
)

// TestLimiterForgetsIdleCallers: callers are peer addresses, which a
// client may have many of; the table keeps a caller while a call of it
// runs or its bucket is not full, and no longer.
func TestLimiterForgetsIdleCallers(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLimiter(Limits{Rate: 1, Burst: 1, MaxConcurrent: 2})
	l.now = func() time.Time { return now }
	size := func() int {
		l.mu.Lock()
		defer l.mu.Unlock()
		return len(l.callers)
	}

	c, leave, _ := l.enter("peer 192.0.2.1", tokenLimits{})
	if c2, leave2, _ := l.enter("peer 192.0.2.1", tokenLimits{}); c2 != c {
		t.Fatal("two calls of one caller got two tables")
	} else {
		leave2()
	}
	if size() != 1 {
		t.Fatalf("%d callers while a call runs, want 1", size())
	}
	leave()
	if size() != 0 {
		t.Errorf("%d callers after the last call of an untouched bucket ended, want 0", size())
	}

	// A caller whose bucket is not full is kept: forgetting it would give
	// it a fresh burst.
	c, leave, _ = l.enter("peer 192.0.2.2", tokenLimits{})
	c.rate.ReserveN(now, 1)
	leave()
	if size() != 1 {
		t.Fatalf("%d callers after a call that spent a token, want 1", size())
	}
	// Many callers later, a sweep forgets it once its bucket refilled.
	now = now.Add(time.Minute)
	for i := range 2 * minSweep {
		_, leave, err := l.enter(fmt.Sprintf("peer 198.51.100.%d", i), tokenLimits{})
		if err != nil {
			t.Fatal(err)
		}
		defer leave()
	}
	l.mu.Lock()
	_, kept := l.callers["peer 192.0.2.2"]
	l.mu.Unlock()
	if kept {
		t.Error("a caller idle for a minute with a full bucket survived the sweep")
	}
	if n := size(); n != 2*minSweep {
		t.Errorf("%d callers, want the %d with calls running", n, 2*minSweep)
	}
}

// TestCallerHoldingASlotIsNotForgotten: a caller whose calls have all
// ended, but one of whose handlers still holds a slot (it has not
// returned), keeps its limits, so that its next call waits for that slot
// rather than getting fresh ones.
func TestCallerHoldingASlotIsNotForgotten(t *testing.T) {
	l := newLimiter(Limits{MaxConcurrent: 1})
	c, leave, err := l.enter("a", tokenLimits{})
	if err != nil {
		t.Fatal(err)
	}
	c.slots <- struct{}{} // its handler runs on
	leave()               // its call has ended
	again, leaveAgain, err := l.enter("a", tokenLimits{})
	if err != nil {
		t.Fatal(err)
	}
	defer leaveAgain()
	if again != c {
		t.Error("the caller was forgotten while a handler of its held a slot: its next call got fresh slots")
	}
}
