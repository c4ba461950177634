//go:build !race

package cli

// raceEnabled says the race detector instruments this build.
const raceEnabled = false
