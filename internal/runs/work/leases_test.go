package work_test

import (
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/runs/work"
)

func TestPollAfterGrowsWithTheWait(t *testing.T) {
	tests := []struct {
		lease  time.Duration
		waited []time.Duration
		want   []time.Duration
	}{
		{
			lease:  work.DefaultLease, // Poll 250 ms
			waited: []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond, time.Second, 2 * time.Second, time.Hour},
			want:   []time.Duration{7812500, 7812500, 12500 * time.Microsecond, 125 * time.Millisecond, 250 * time.Millisecond, 250 * time.Millisecond},
		},
		{
			lease:  time.Second, // Poll 50 ms
			waited: []time.Duration{0, 10 * time.Millisecond, 100 * time.Millisecond, time.Second},
			want:   []time.Duration{1562500, 1562500, 12500 * time.Microsecond, 50 * time.Millisecond},
		},
	}
	for _, tc := range tests {
		l := work.NewLeases(nil, "w", tc.lease, time.Now)
		for i, waited := range tc.waited {
			if got := l.PollAfter(waited); got != tc.want[i] {
				t.Errorf("lease %v: PollAfter(%v) = %v, want %v", tc.lease, waited, got, tc.want[i])
			}
		}
	}
}
