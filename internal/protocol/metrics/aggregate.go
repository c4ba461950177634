package metrics

import (
	"slices"
	"strings"
)

// Reason says why a pool is left out of a cell's means. The empty Reason
// means the pool is included.
type Reason string

// Exclusion reasons. Callers may use other non-empty reasons; Aggregate
// counts every reason alike.
const (
	// ExcludedUnparseable: the planner's output held no JSON plan (SPEC §2
	// step 4); the plan is excluded, not scored as empty.
	ExcludedUnparseable Reason = "unparseable"
	// ExcludedError: the planner call failed, so there is no output.
	ExcludedError Reason = "error"
	// ExcludedMissing: no plan is recorded for the pool.
	ExcludedMissing Reason = "missing"
	// ExcludedNoPopulation: a partial-information reference (SPEC §4) of a
	// solver whose population has graded no item of the pool (a run of one
	// model): nothing is known about the items, so there is no plan.
	ExcludedNoPopulation Reason = "no_population"
	// ExcludedInvalid: set by Aggregate for an included record whose numbers
	// are unusable: η or V_oracle not finite, RegretDefined disagreeing with
	// V_oracle > 0, or a defined regret that is not finite.
	ExcludedInvalid Reason = "invalid"
)

// PoolScore is one pool's scores in one cell (one solver, dataset, α, prompt
// variant and regime).
type PoolScore struct {
	// Pool optionally names the pool, for reports; Aggregate ignores it.
	Pool string
	// Excluded is empty when the pool's plan was parsed and scored, and
	// otherwise says why the pool has no scores.
	Excluded Reason
	// Eta is η (see Eta).
	Eta float64
	// Regret is R̃ when RegretDefined, else 0 (see Regret).
	Regret float64
	// RegretDefined reports whether R̃ is defined, i.e. V_oracle > 0.
	RegretDefined bool
	// VOracle is the pool's V_oracle.
	VOracle float64
	// Degenerate says whether η is measured (Informative) or set by
	// convention, and why (see Classify).
	Degenerate Degeneracy
}

// Score returns the included PoolScore of a plan that achieved vm on a pool
// with the given oracle and random reference values.
func Score(vm, voracle, vrandom float64) PoolScore {
	r, ok := Regret(vm, voracle)
	return PoolScore{Eta: Eta(vm, voracle, vrandom), Regret: r, RegretDefined: ok, VOracle: voracle, Degenerate: Classify(voracle, vrandom)}
}

// Exclude returns the PoolScore of a pool left out for reason, which should
// not be empty.
func Exclude(reason Reason) PoolScore { return PoolScore{Excluded: reason} }

// Mean is an average together with how many values it averaged.
type Mean struct {
	// Value is the mean; 0 when Defined is false.
	Value float64
	// N is the number of values averaged.
	N int
	// Defined is false when N = 0: the mean of nothing is undefined.
	Defined bool
}

// ReasonCount is how many pools were excluded for one reason.
type ReasonCount struct {
	// Reason is the exclusion reason.
	Reason Reason
	// Count is the number of pools excluded for it, > 0.
	Count int
}

// Cell is the aggregate of one cell's pools (SPEC §5).
type Cell struct {
	// Pools is the number of pool records aggregated.
	Pools int
	// Eta is the mean η over the pools with a parseable plan.
	Eta Mean
	// Degenerate counts the pools in Eta that are degenerate, by kind
	// (SPEC §5): their η is set by convention, not measured.
	Degenerate DegenerateCounts
	// Informative is the mean η over the pools in Eta that are not
	// degenerate: Informative.N + Degenerate.Total() = Eta.N.
	Informative Mean
	// Regret is the mean R̃ over the pools with a parseable plan and
	// V_oracle > 0.
	Regret Mean
	// Excluded counts the pools left out of both means, per reason, sorted
	// by reason. Eta.N + Σ Excluded.Count = Pools.
	Excluded []ReasonCount
	// RegretUndefined counts the pools in the η mean left out of the R̃ mean
	// because V_oracle ≤ 0. Regret.N + RegretUndefined = Eta.N.
	RegretUndefined int
}

// Aggregate averages a cell's pool scores. A pool enters the η mean when its
// Excluded is empty and its numbers are usable (else it is counted under
// ExcludedInvalid), and also the R̃ mean when RegretDefined; a pool of the η
// mean enters the informative mean unless it is Degenerate (then it is
// counted in Cell.Degenerate). Means are plain
// sums in input order divided by N; an empty mean is reported with
// Defined = false rather than NaN.
func Aggregate(scores []PoolScore) Cell {
	cell := Cell{Pools: len(scores), Excluded: []ReasonCount{}}
	var etaSum, regretSum, informativeSum float64
	excluded := map[Reason]int{}
	for _, s := range scores {
		reason := s.Excluded
		if reason == "" && !Usable(s) {
			reason = ExcludedInvalid
		}
		if reason != "" {
			excluded[reason]++
			continue
		}
		etaSum += s.Eta
		cell.Eta.N++
		if s.Degenerate == Informative {
			informativeSum += s.Eta
			cell.Informative.N++
		} else {
			cell.Degenerate.Count(s.Degenerate)
		}
		if s.RegretDefined {
			regretSum += s.Regret
			cell.Regret.N++
		} else {
			cell.RegretUndefined++
		}
	}
	cell.Eta = mean(etaSum, cell.Eta.N)
	cell.Regret = mean(regretSum, cell.Regret.N)
	cell.Informative = mean(informativeSum, cell.Informative.N)
	for r, c := range excluded {
		cell.Excluded = append(cell.Excluded, ReasonCount{Reason: r, Count: c})
	}
	slices.SortFunc(cell.Excluded, func(a, b ReasonCount) int {
		return strings.Compare(string(a.Reason), string(b.Reason))
	})
	return cell
}

// Usable reports whether an included score's numbers can enter the means:
// η and V_oracle finite, RegretDefined agreeing with V_oracle > 0, and a
// defined regret finite. Aggregate counts the others as ExcludedInvalid.
func Usable(s PoolScore) bool {
	if !finite(s.Eta) || !finite(s.VOracle) || s.RegretDefined != (s.VOracle > 0) {
		return false
	}
	return !s.RegretDefined || finite(s.Regret)
}

// mean returns sum/n, undefined when n = 0.
func mean(sum float64, n int) Mean {
	if n == 0 {
		return Mean{}
	}
	return Mean{Value: sum / float64(n), N: n, Defined: true}
}
