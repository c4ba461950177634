package repair

import "fmt"

// Status says how a raw planner output became a plan. The zero value is not a
// status and is never produced.
type Status uint8

// The three statuses.
const (
	// OK: the output was a plan exactly as required — one strict JSON value
	// {"plan": [...]}, nothing around it but whitespace, every step a known,
	// first-seen id with a positive integer allocation. Result.Fixes is empty.
	OK Status = iota + 1
	// Repaired: a plan was found, and at least one repair rule fired; each is
	// listed in Result.Fixes. Steps dropped by normalization count as repairs.
	Repaired
	// Unparseable: no JSON plan was found (SPEC §2 step 4). The plan is
	// excluded from scoring — it is not an empty plan. Result.Error says why.
	Unparseable
)

var statusNames = [...]string{OK: "ok", Repaired: "repaired", Unparseable: "unparseable"}

// String returns "ok", "repaired" or "unparseable", and "Status(n)" for any
// other value.
func (s Status) String() string {
	if s >= OK && s <= Unparseable {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// MarshalText encodes s as its String form; it fails for an invalid status.
func (s Status) MarshalText() ([]byte, error) {
	if s < OK || s > Unparseable {
		return nil, fmt.Errorf("repair: invalid status %d", uint8(s))
	}
	return []byte(statusNames[s]), nil
}

// UnmarshalText decodes the String form of a valid status.
func (s *Status) UnmarshalText(text []byte) error {
	for v := OK; v <= Unparseable; v++ {
		if statusNames[v] == string(text) {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("repair: unknown status %q", text)
}
