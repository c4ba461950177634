package work_test

import (
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/runs/work"
)

func TestPollAfterGrowsWithTheWait(t *testing.T) {
	const ms = time.Millisecond
	tests := []struct {
		lease, waited, want time.Duration
	}{
		// DefaultLease: Poll is 250 ms.
		{work.DefaultLease, 0, 7812500},
		{work.DefaultLease, 50 * ms, 7812500},
		{work.DefaultLease, 100 * ms, 12500 * time.Microsecond},
		{work.DefaultLease, time.Second, 125 * ms},
		{work.DefaultLease, 2 * time.Second, 250 * ms},
		{work.DefaultLease, time.Hour, 250 * ms},
		// A 1 s lease: Poll is 50 ms.
		{time.Second, 0, 1562500},
		{time.Second, 10 * ms, 1562500},
		{time.Second, 100 * ms, 12500 * time.Microsecond},
		{time.Second, time.Second, 50 * ms},
	}
	for _, tc := range tests {
		l := work.NewLeases(nil, "w", tc.lease, time.Now)
		if got := l.PollAfter(tc.waited); got != tc.want {
			t.Errorf("lease %v: PollAfter(%v) = %v, want %v", tc.lease, tc.waited, got, tc.want)
		}
	}
}
