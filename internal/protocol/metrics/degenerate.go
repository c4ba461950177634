package metrics

// Degeneracy says whether a pool's η measures its plan, and if not why
// (SPEC §5, degenerate pools). In a degenerate pool the random reference
// already attains the oracle, so η is set by Eta's boundary convention (1 or
// 0) rather than measured. The empty Degeneracy is an informative pool.
type Degeneracy string

// The kinds of degenerate pools of SPEC §5.
const (
	// Informative: V_oracle − V_random > ε; η measures the plan.
	Informative Degeneracy = ""
	// DegenerateNoValue (D1): V_oracle = 0, nothing solvable fits the
	// budget; every plan scores η = 1.
	DegenerateNoValue Degeneracy = "D1"
	// DegenerateCollapse (D2): V_oracle = V_random > 0, every order of
	// the pool reaches the oracle (the α = 1 collapse); η is 1 for a plan
	// that reaches it and 0 otherwise.
	DegenerateCollapse Degeneracy = "D2"
)

// Classify returns the Degeneracy of a pool with the given oracle and
// random reference values: DegenerateNoValue when V_oracle ≤ ε,
// DegenerateCollapse when V_oracle > ε and V_oracle − V_random ≤ ε, else
// Informative. With valid references (0 ≤ V_random ≤ V_oracle) a pool is
// degenerate exactly when Eta applies its boundary convention. NaN or
// infinite inputs are Informative (Usable rejects them).
func Classify(voracle, vrandom float64) Degeneracy {
	switch {
	case !finite(voracle) || !finite(vrandom):
		return Informative
	case !(voracle > Epsilon):
		return DegenerateNoValue
	case !(voracle-vrandom > Epsilon):
		return DegenerateCollapse
	}
	return Informative
}

// Meaning describes a kind of degenerate pool in words, for reports:
// "V_oracle = 0" for D1, "V_oracle = V_random > 0" for D2, "" for an
// informative pool.
func (d Degeneracy) Meaning() string {
	switch d {
	case DegenerateNoValue:
		return "V_oracle = 0"
	case DegenerateCollapse:
		return "V_oracle = V_random > 0"
	}
	return ""
}

// DegenerateCounts counts the degenerate pools of a mean, by kind.
type DegenerateCounts struct {
	// NoValue counts D1 pools, Collapse D2 pools.
	NoValue, Collapse int
}

// Total is the number of degenerate pools.
func (d DegenerateCounts) Total() int { return d.NoValue + d.Collapse }

// Add returns the sum of two counts.
func (d DegenerateCounts) Add(o DegenerateCounts) DegenerateCounts {
	return DegenerateCounts{NoValue: d.NoValue + o.NoValue, Collapse: d.Collapse + o.Collapse}
}

// Count adds one pool of kind k.
func (d *DegenerateCounts) Count(k Degeneracy) {
	switch k {
	case DegenerateNoValue:
		d.NoValue++
	case DegenerateCollapse:
		d.Collapse++
	}
}
