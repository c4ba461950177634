package work_test

import (
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/runs/work"
)

func TestPollAfterStartsShortAndBacksOffToPoll(t *testing.T) {
	tests := []struct {
		lease time.Duration
		want  []time.Duration // rounds 0, 1, 2, … 7
	}{
		{work.DefaultLease, []time.Duration{7812500, 15625 * time.Microsecond, 31250 * time.Microsecond, 62500 * time.Microsecond, 125 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond}},
		{time.Second, []time.Duration{1562500, 3125 * time.Microsecond, 6250 * time.Microsecond, 12500 * time.Microsecond, 25 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond}},
	}
	for _, tc := range tests {
		l := work.NewLeases(nil, "w", tc.lease, time.Now)
		for round, want := range tc.want {
			if got := l.PollAfter(round); got != want {
				t.Errorf("lease %v: PollAfter(%d) = %v, want %v", tc.lease, round, got, want)
			}
		}
		if got := l.PollAfter(100); got != l.Poll() {
			t.Errorf("lease %v: PollAfter(100) = %v, want Poll() = %v", tc.lease, got, l.Poll())
		}
	}
}
