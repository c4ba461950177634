package oracle

import (
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/randomref"
)

// Request limits. They bound the work and memory one call can ask for.
const (
	// MaxItems is the largest pool one request may carry.
	MaxItems = protoconv.MaxItems
	// MaxBudgets is the most budgets one request may ask for.
	MaxBudgets = 64
	// MaxIDBytes is the longest item id.
	MaxIDBytes = protoconv.MaxIDBytes
	// MaxCost is the largest cost of one item.
	MaxCost = protoconv.MaxCost
	// DefaultSamples is the Monte Carlo sample count when none is given.
	DefaultSamples = randomref.DefaultSamples
	// MaxSamples is the largest Monte Carlo sample count.
	MaxSamples = randomref.MaxSamples
	// MaxWork bounds items × budgets × samples of one request (the exact
	// method counts one sample). Monte Carlo costs at most about 22 ns per
	// item and sample (100,000 items with non-integer values, whose shuffles
	// miss the cache; 3–4 ns with unit values), so a request at the bound
	// answers in about 2 s on one core of the 2-core reference machine (see
	// BenchmarkMaximalRequest). The paper's calls (30 items × 4 budgets ×
	// 1000 samples = 1.2e5) are far below it.
	MaxWork = 100_000_000
	// MaxKnapsackStates bounds the Pareto states the general-values oracle
	// (items with different values) may examine over all budgets of one
	// request: at 25–55 ns each about 1 s, and at most a few hundred MiB.
	// Unit values never use the search; random values need a few hundred
	// states per budget at 1,000 items and about 250,000 at 100,000 items;
	// values strongly correlated with costs are the hard case (10⁷ states at
	// 1,000 items).
	MaxKnapsackStates = 1 << 24
	// MaxPopulationRecords is the most population records (SPEC §4) one
	// request may carry over all its items: ten thousand members' records
	// of a 100-item pool, or a hundred members' of a 10,000-item pool. The
	// paper's calls carry about 30 items × a dozen members.
	MaxPopulationRecords = 1_000_000
	// PartialWork is what one item costs the partial-information plans at
	// one budget, counted in Monte Carlo samples (MaxWork): the three plans
	// sort the pool by exact rationals at every budget, about 1,700 times
	// a sample of the non-integer Monte Carlo kernel (BenchmarkPartialReferences
	// at 10,000 items against BenchmarkMaximalRequest's real/items=100000,
	// run together), so a request at the bound still answers in seconds. A
	// population's records count one each.
	PartialWork = 2000
	// MaxAnswerSteps bounds the plan steps one answer may hold, counted
	// before any work as items × budgets × plans: the oracle's plan at
	// every budget and, with a population, the three partial-information
	// plans. A step takes about 100 bytes while the answer is built, so
	// this bounds an answer's memory near 100 MB (100,000 items at 64
	// budgets once took 320 MB, then were refused for the answer's size);
	// 100,000 items at 10 budgets, and the paper's 30 items at 4 budgets
	// with a population, pass.
	MaxAnswerSteps = 1_000_000
)

// samplesOf is the Monte Carlo sample count opts asks for: DefaultSamples
// when it names none.
func samplesOf(opts *triagev1.RandomReferenceOptions) int {
	if n := int(opts.GetSamples()); n != 0 {
		return n
	}
	return DefaultSamples
}
