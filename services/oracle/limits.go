package oracle

// Request limits. They bound the work and memory one call can ask for.
const (
	// MaxItems is the largest pool one request may carry.
	MaxItems = 100_000
	// MaxBudgets is the most budgets one request may ask for.
	MaxBudgets = 64
	// MaxIDBytes is the longest item id.
	MaxIDBytes = 256
	// MaxCost is the largest cost of one item; with MaxItems it keeps every
	// sum of costs far from overflowing.
	MaxCost = 1_000_000_000_000
	// MaxValue is the largest value of one item.
	MaxValue = 1e12
	// DefaultSamples is the Monte Carlo sample count when none is given.
	DefaultSamples = 1000
	// MaxSamples is the largest Monte Carlo sample count.
	MaxSamples = 1_000_000
)
