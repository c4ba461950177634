package execution

import "fmt"

// DropReason says why Normalize removed a raw plan step. The zero value is
// not a reason and is never produced.
type DropReason uint8

// Drop reasons, in the order Normalize checks them (the first that applies is
// recorded).
const (
	// DropUnknownID: the id is not in the pool.
	DropUnknownID DropReason = iota + 1
	// DropDuplicate: the id appeared earlier in the plan; the first occurrence
	// wins, whatever its allocation.
	DropDuplicate
	// DropNegative: the allocation was negative, so it became 0 and the step
	// was dropped as not attempted.
	DropNegative
	// DropZero: the allocation was 0, so the item is not attempted.
	DropZero
)

var dropNames = [...]string{
	DropUnknownID: "unknown_id",
	DropDuplicate: "duplicate",
	DropNegative:  "negative",
	DropZero:      "zero",
}

// String returns "unknown_id", "duplicate", "negative" or "zero", and
// "DropReason(n)" for any other value.
func (r DropReason) String() string {
	if r >= DropUnknownID && r <= DropZero {
		return dropNames[r]
	}
	return fmt.Sprintf("DropReason(%d)", uint8(r))
}

// MarshalText encodes r as its String form; it fails for an invalid reason.
func (r DropReason) MarshalText() ([]byte, error) {
	if r < DropUnknownID || r > DropZero {
		return nil, fmt.Errorf("execution: invalid drop reason %d", uint8(r))
	}
	return []byte(dropNames[r]), nil
}

// UnmarshalText decodes the String form of a valid reason.
func (r *DropReason) UnmarshalText(text []byte) error {
	for v := DropUnknownID; v <= DropZero; v++ {
		if dropNames[v] == string(text) {
			*r = v
			return nil
		}
	}
	return fmt.Errorf("execution: unknown drop reason %q", text)
}

// Drop is one raw plan step that Normalize removed.
type Drop struct {
	// Index is the step's position in the raw plan, from 0.
	Index int
	// ID is the step's id as given.
	ID string
	// Tokens is the step's allocation as given (before negatives became 0).
	Tokens int64
	// Reason is why the step was removed.
	Reason DropReason
}
