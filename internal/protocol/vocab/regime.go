package vocab

import "cmp"

// Regime names an execution regime (SPEC §3).
type Regime string

// The execution regimes.
const (
	// Advisory is regime U: allocations are advisory, each attempted item
	// costs its true cost.
	Advisory Regime = "U"
	// Enforced is regime E: an item whose allocation is below its true
	// cost fails and costs its allocation.
	Enforced Regime = "E"
)

// Regimes lists the regimes in their order (U, E).
func Regimes() []Regime { return []Regime{Advisory, Enforced} }

// Valid reports whether r is a known regime.
func (r Regime) Valid() bool { return r == Advisory || r == Enforced }

// String returns the stored form ("U" or "E").
func (r Regime) String() string { return string(r) }

// CompareRegimes orders U before E (the paper's order), then any other
// name alphabetically.
func CompareRegimes(a, b Regime) int {
	rank := func(r Regime) int {
		switch r {
		case Advisory:
			return 0
		case Enforced:
			return 1
		}
		return 2
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b))
}
