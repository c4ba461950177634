package oracle

import "github.com/triage-eval/triage/internal/platform/protoconv"

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
	DefaultSamples = 1000
	// MaxSamples is the largest Monte Carlo sample count.
	MaxSamples = 1_000_000
)
