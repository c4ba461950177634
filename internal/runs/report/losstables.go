package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// noteNoPopulation explains metrics.ExcludedNoPopulation where tables list
// exclusions.
const noteNoPopulation = "no_population: a partial-information reference (population, self_feasibility, self_cost; SPEC §4) learns the items from the solvers of the other models in the run (leave-model-out); with none of them having graded the pool, as in a run of one model, there is no reference to compute and the pool is left out."

// LossTableTitle is the title of the "Why plans lose value" table at one α
// of one strategy and variant; the HTML report finds the table by it.
func LossTableTitle(alpha float64, strategy vocab.Strategy, variant vocab.Variant) string {
	return fmt.Sprintf("Why plans lose value at α = %s — %s", alphaText(alpha), ScopePhrase(strategy, variant))
}

// SelfKnowledgeTableTitle is the title of the self-knowledge table at one
// α; the HTML report finds the table by it.
func SelfKnowledgeTableTitle(alpha float64) string {
	return fmt.Sprintf("Self-knowledge at α = %s — η_U beside the partial-information references", alphaText(alpha))
}

// LossTables returns one "Why plans lose value" table per pair of
// HeadlineScopes with cells at the headline α (Report.Alpha): rows
// (model, mode, dataset), each solver's datasets and then its mean over
// datasets; columns the regret decomposition (selection, order,
// enforcement, with intervals, n the decomposed pools), R̃_U and R̃_E, and
// the plan diagnostics (precision, recall, cost forecast,
// under-allocation, each with its n).
func (r Report) LossTables() []Table {
	var ts []Table
	ix := r.Index()
	for _, sv := range r.HeadlineScopes {
		keep := func(c Cell) bool { return c.Alpha == r.Alpha && c.Strategy == sv.Strategy && c.Variant == sv.Variant }
		if !slices.ContainsFunc(r.Cells, keep) {
			continue
		}
		ts = append(ts, r.lossTable(ix, sv, keep))
	}
	return ts
}

func (r Report) lossTable(ix *Index, sv StrategyVariant, keep func(Cell) bool) Table {
	t := Table{
		Title: LossTableTitle(r.Alpha, sv.Strategy, sv.Variant),
		Notes: []string{
			"Rows: solvers (model, mode) and datasets, then the solver's mean over datasets. selection, order and enforcement are the regret decomposition of SPEC §5, each divided by V_oracle and averaged over the pools with V_oracle > 0 whose records carry it (n): selection = the value the planned set could not reach (V_oracle − V_S, V_S the best subset of the planned set that fits B), order = the value its order and early stop lost (V_S − V_U), enforcement = what binding the plan's own allocations cost (V_U − V_E; negative when it helped). Pool by pool selection + order = R̃_U and selection + order + enforcement = R̃_E; the decomposition is the plan's, the same under both regimes.",
			"precision = share of the planned items the solver solves, recall = share of the solvable items planned, cost forecast = median log₂(allocation / actual cost) over the planned items (0 = exact, negative = under-forecast), under-allocation = share of the planned solvable items given fewer tokens than they need (regime E truncates them); each a mean over the pools where it is defined (n).",
			noteCounts,
		},
		Header: []string{"Model", "Mode", "Dataset", "selection [95% CI]", "order [95% CI]", "enforcement [95% CI]", "n", "R̃_U [95% CI]", "R̃_E [95% CI]", "precision", "recall", "cost forecast", "under-allocation"},
		Align:  "lllrrrrrrrrrr",
	}
	var undecomposed, mismatch int
	for _, s := range Solvers(r.Cells, keep) {
		datasets := Distinct(r.Cells, func(c Cell) bool { return keep(c) && c.Model == s.Model && c.Mode == s.Mode }, func(c Cell) string { return c.Dataset })
		for _, d := range append(datasets, AllDatasets) {
			u, uok := ix.get(s.Model, s.Mode, d, r.Alpha, sv.Variant, sv.Strategy, vocab.Advisory)
			e, eok := ix.get(s.Model, s.Mode, d, r.Alpha, sv.Variant, sv.Strategy, vocab.Enforced)
			if !uok && !eok {
				continue
			}
			plan := u // the decomposition and the diagnostics are the plan's
			if !uok || (eok && !u.Selection.Mean.Defined && e.Selection.Mean.Defined) {
				plan = e
			}
			if d != AllDatasets {
				undecomposed += plan.Undecomposed
				mismatch += u.DecompositionMismatch + e.DecompositionMismatch
			}
			n := fmt.Sprint(plan.Selection.Mean.N)
			if plan.Undecomposed > 0 {
				n += fmt.Sprintf(" (+%d without)", plan.Undecomposed)
			}
			row := []string{s.Model, s.Mode, datasetLabel(d),
				plan.lossText(selectionLoss), plan.lossText(orderLoss), plan.lossText(enforcementLoss), n,
				regretText(u, uok), regretText(e, eok),
				diagnosticText(plan.Precision), diagnosticText(plan.Recall), diagnosticText(plan.CostForecast), diagnosticText(plan.UnderAllocation),
			}
			if missing := plan.Selection.Missing; len(missing) > 0 {
				row[6] += "; without " + strings.Join(missing, ", ")
			}
			if zero := plan.OracleZero; len(zero) > 0 {
				row[6] += "; without " + strings.Join(zero, ", ") + " (V_oracle = 0)"
			}
			t.Rows = append(t.Rows, row)
		}
	}
	if undecomposed > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("\"+k without\": pools with V_oracle > 0 whose records carry no decomposition (%d in this table's datasets), stored by a build from before records carried it; they are left out of these means.", undecomposed))
	}
	if mismatch > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("Records whose stored losses break selection + order = R̃_U or selection + order + enforcement = R̃_E by more than 1e-12 against the recomputed R̃ (%d in this table's datasets; cells.csv: decomposition_mismatch): stale or inconsistent records, still averaged.", mismatch))
	}
	if singles := singlePoolText(r.Macros, keep); singles != "" {
		t.Notes = append(t.Notes, singles)
	}
	return withFewPoolsNote(t)
}

// diagnosticText is a diagnostic's mean with its n, "0.800 (n=5)".
func diagnosticText(m PoolMean) string {
	return fmt.Sprintf("%s (n=%d)", fixed3(m.Mean), m.Mean.N)
}

// regretText is a cell's mean R̃ with its interval, "" without the cell.
func regretText(c Cell, ok bool) string {
	if !ok {
		return ""
	}
	return withCI(c.Regret, c.RegretCI, c.regretCIPools())
}

// SelfKnowledgeTable sets, at the headline α, each solver's η_U under
// KnowledgeScope (its own plans: strategy llm under the headline variant)
// beside its η_U under the partial-information references of SPEC §4
// (population, self_feasibility, self_cost) on the same datasets: rows
// (dataset, model, mode), each entry "η_U [95% CI] (n=pools)", and the
// exclusions. ok is false when the report has no partial-information
// reference cell at the headline α.
func (r Report) SelfKnowledgeTable() (t Table, ok bool) {
	refs := vocab.PartialReferences()
	keep := func(c Cell) bool {
		return c.Alpha == r.Alpha && c.Regime == vocab.Advisory && c.Strategy.PartialReference()
	}
	if !slices.ContainsFunc(r.Cells, keep) {
		return Table{}, false
	}
	scopes := []StrategyVariant{}
	if r.KnowledgeScope.Strategy != "" {
		scopes = append(scopes, r.KnowledgeScope)
	}
	for _, s := range refs {
		scopes = append(scopes, StrategyVariant{s, vocab.NoVariant})
	}
	t = Table{
		Title: SelfKnowledgeTableTitle(r.Alpha),
		Notes: []string{
			"Rows: datasets and solvers (model, mode). Each entry: mean η_U over the pools (n) of one strategy for that solver — its own plans, then the partial-information references of SPEC §4, plans that know only part of what a planner could: population ranks the items by how the other models (leave-model-out) fared on them, without knowing the solver; self_feasibility knows which items this solver solves but not their cost; self_cost knows its costs but not which it solves. A planner above population knows something about itself beyond the items' difficulty; self_feasibility and self_cost show what knowing one half of it is worth.",
			noteCounts, noteExcl, noteNoPopulation,
		},
		Header: []string{"Dataset", "Model", "Mode"},
		Align:  "lll" + strings.Repeat("r", len(scopes)) + "l",
	}
	for _, sv := range scopes {
		name := string(sv.Strategy)
		if sv.Variant != vocab.NoVariant && sv.Variant != "" {
			name += " (" + string(sv.Variant) + ")"
		}
		t.Header = append(t.Header, "η_U "+name)
	}
	t.Header = append(t.Header, "excluded")
	inScope := func(c Cell) bool {
		return c.Alpha == r.Alpha && c.Regime == vocab.Advisory && slices.Contains(scopes, StrategyVariant{c.Strategy, c.Variant})
	}
	ix := r.Index()
	for _, d := range Distinct(r.Cells, keep, func(c Cell) string { return c.Dataset }) {
		for _, s := range Solvers(r.Cells, func(c Cell) bool { return inScope(c) && c.Dataset == d }) {
			row := []string{d, s.Model, s.Mode}
			var excl []string
			for _, sv := range scopes {
				c, ok := ix.get(s.Model, s.Mode, d, r.Alpha, sv.Variant, sv.Strategy, vocab.Advisory)
				if !ok {
					row = append(row, "")
					continue
				}
				row = append(row, fmt.Sprintf("%s (n=%d)", withCI(c.Eta, c.EtaCI, c.etaCIPools()), c.Eta.N))
				if len(c.Excluded) > 0 {
					excl = append(excl, string(sv.Strategy)+": "+reasonsText(c.Excluded, ", "))
				}
			}
			t.Rows = append(t.Rows, append(row, strings.Join(excl, "; ")))
		}
	}
	return withFewPoolsNote(t), true
}
