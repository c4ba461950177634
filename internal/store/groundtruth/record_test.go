package groundtruth

import "testing"

func TestStoredSamplesPending(t *testing.T) {
	const now, before = "aaaa", "bbbb"
	samples := StoredSamples{
		1: {Gradeable: true, ProblemSHA256: now},
		2: {Gradeable: true, ProblemSHA256: before},
		3: {Gradeable: true},
		4: {Gradeable: false, ProblemSHA256: now},
		5: {Gradeable: false, ProblemSHA256: before},
	}
	for _, tc := range []struct {
		name           string
		j              int
		rerun, keep    bool
		pending, stale bool
	}{
		{name: "fresh gradeable kept", j: 1},
		{name: "fresh gradeable rerun", j: 1, rerun: true, pending: true},
		{name: "stale gradeable", j: 2, pending: true, stale: true},
		{name: "stale gradeable with keep", j: 2, keep: true, pending: true, stale: true},
		{name: "no digest kept", j: 3},
		{name: "fresh not gradeable", j: 4, pending: true},
		{name: "fresh not gradeable kept", j: 4, keep: true},
		{name: "stale not gradeable kept nonetheless solved", j: 5, keep: true, pending: true, stale: true},
		{name: "not stored", j: 6, pending: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := samples.Pending(tc.j, now, tc.rerun, tc.keep); got != tc.pending {
				t.Errorf("Pending = %v, want %v", got, tc.pending)
			}
			if got := samples.Stale(tc.j, now); got != tc.stale {
				t.Errorf("Stale = %v, want %v", got, tc.stale)
			}
		})
	}
}
