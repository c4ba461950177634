package orchestrator

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// CallFailures tallies the model calls that failed, by reason (or, as
// BaselineSummary.Ungradeable, the calls stored as not gradeable). It is
// safe for concurrent use; the zero value is empty.
type CallFailures struct {
	mu      sync.Mutex
	reasons map[string]int
	n       int
}

// Add counts one failed call.
func (f *CallFailures) Add(reason string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.reasons == nil {
		f.reasons = map[string]int{}
	}
	if reason == "" {
		reason = "no reason given"
	}
	f.reasons[reason]++
	f.n++
}

// Count is the number of failed calls; 0 for a nil tally.
func (f *CallFailures) Count() int {
	if f == nil {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// shownReasons is how many distinct reasons Reasons lists.
const shownReasons = 3

// Reasons lists the most frequent reasons first ("30× HTTP 401…"), at most
// three, then how many others there were; "" for a nil tally.
func (f *CallFailures) Reasons() string {
	if f == nil {
		return ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	keys := slices.SortedFunc(maps.Keys(f.reasons), func(a, b string) int {
		return cmp.Or(cmp.Compare(f.reasons[b], f.reasons[a]), strings.Compare(a, b))
	})
	var parts []string
	for i, k := range keys {
		if i == shownReasons {
			parts = append(parts, fmt.Sprintf("and %d other reasons", len(keys)-shownReasons))
			break
		}
		parts = append(parts, fmt.Sprintf("%d× %s", f.reasons[k], k))
	}
	return strings.Join(parts, "; ")
}

// Outcome judges the made model calls of what (e.g. `planner calls`) of
// which f counts the failed: a *CallsFailedError when every one failed, a
// warning when some did — saying that retry (e.g. `triage run run.yaml`)
// tries them again — and neither when none did.
func (f *CallFailures) Outcome(what string, made int, retry string) (warning string, err error) {
	failed := f.Count()
	switch {
	case failed == 0:
		return "", nil
	case failed >= made:
		return "", &CallsFailedError{What: what, Calls: failed, Reasons: f.Reasons()}
	}
	return fmt.Sprintf("%d of %d %s failed (%s); %s tries them again", failed, made, what, f.Reasons(), retry), nil
}

// CallsFailedError says that every model call of a command, or of one of
// its solvers, failed: the endpoint, not the problems, is at fault, and the
// results hold nothing measured.
type CallsFailedError struct {
	// What made the calls, e.g. "planner calls".
	What string
	// Calls is how many were made.
	Calls int
	// Reasons is CallFailures.Reasons.
	Reasons string
}

func (e *CallsFailedError) Error() string {
	return fmt.Sprintf("all %d %s failed: %s", e.Calls, e.What, e.Reasons)
}
