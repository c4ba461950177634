package execution

import "fmt"

// Outcome is what happened to one plan step during execution. The zero value
// is not an outcome and is never produced.
type Outcome uint8

// Outcomes of a plan step.
const (
	// Scored: the step was executed and, in regime E, finished within its
	// allocation; its gain is v·y (0 for an incorrect item).
	Scored Outcome = iota + 1
	// Truncated: regime E only; the step was executed and its allocation
	// deducted, but its cost exceeded the allocation, so it scores 0.
	Truncated
	// Stopped: execution stopped at this step because it did not fit what
	// remained; it was not executed.
	Stopped
	// NotReached: the step comes after the stop and was never attempted.
	NotReached
)

var outcomeNames = [...]string{
	Scored:     "scored",
	Truncated:  "truncated",
	Stopped:    "stopped",
	NotReached: "not_reached",
}

// String returns "scored", "truncated", "stopped" or "not_reached", and
// "Outcome(n)" for any other value.
func (o Outcome) String() string {
	if o >= Scored && o <= NotReached {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// MarshalText encodes o as its String form; it fails for an invalid outcome.
func (o Outcome) MarshalText() ([]byte, error) {
	if o < Scored || o > NotReached {
		return nil, fmt.Errorf("execution: invalid outcome %d", uint8(o))
	}
	return []byte(outcomeNames[o]), nil
}

// UnmarshalText decodes the String form of a valid outcome.
func (o *Outcome) UnmarshalText(text []byte) error {
	for v := Scored; v <= NotReached; v++ {
		if outcomeNames[v] == string(text) {
			*o = v
			return nil
		}
	}
	return fmt.Errorf("execution: unknown outcome %q", text)
}
