//go:build race

package cli

// raceEnabled says the race detector instruments this build, which slows
// compute-bound code several times.
const raceEnabled = true
