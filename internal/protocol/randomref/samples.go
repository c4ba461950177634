package randomref

// MaxSamples is the largest Monte Carlo sample count a request or a run
// config may ask for; DefaultSamples is the count when none is given.
// The Oracle's limits and the run config's check both read them.
const (
	MaxSamples     = 1_000_000
	DefaultSamples = 1000
)
