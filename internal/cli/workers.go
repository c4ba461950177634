package cli

import (
	"flag"
	"time"

	"github.com/triage-eval/triage/internal/runs/orchestrator"
)

// sharedFlags are the flags of a command that can share its work with other
// processes on one run store (run, baseline, budget-aware): start several
// on a PostgreSQL run store (or one SQLite file on one machine) and they
// split the units between them.
type sharedFlags struct {
	worker string
	lease  time.Duration
}

// addSharedFlags defines the sharing flags on fs.
func addSharedFlags(fs *flag.FlagSet) *sharedFlags {
	s := &sharedFlags{}
	fs.StringVar(&s.worker, "worker", "", "this worker's name in a run shared by several processes (default: host/pid/random)")
	fs.DurationVar(&s.lease, "lease", orchestrator.DefaultLease, "how long a worker holds a unit without renewing it; a dead worker's units are taken over after it")
	return s
}
