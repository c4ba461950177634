package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// sharedFlags are the flags of a command that can share its work with other
// processes on one run store (run, baseline, budget-aware): start several
// on a PostgreSQL run store (or one SQLite file on one machine) and they
// split the units between them.
type sharedFlags struct {
	worker      string
	lease       time.Duration
	storeOutage time.Duration
}

// addSharedFlags defines the sharing flags on fs.
func addSharedFlags(fs *flag.FlagSet) *sharedFlags {
	s := &sharedFlags{}
	fs.StringVar(&s.worker, "worker", "", "this worker's name in a run shared by several processes (default: host/pid/random)")
	s.lease = work.DefaultLease
	fs.Var(leaseValue{&s.lease}, "lease", fmt.Sprintf("how long a worker holds a unit without renewing it; a dead worker's units are taken over after it (at least %v)", work.MinLease))
	fs.DurationVar(&s.storeOutage, "store-outage", runstore.DefaultOutage, "how long to keep trying a run store that stopped answering (connection refused, reset or cut) before stopping; the same command then resumes (0: stop at once)")
	return s
}

// leaseValue is the --lease flag: a duration of at least work.MinLease,
// checked as the flag is parsed.
type leaseValue struct{ d *time.Duration }

func (v leaseValue) String() string {
	if v.d == nil {
		return ""
	}
	return v.d.String()
}

func (v leaseValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("want a duration like 1m or 90s")
	}
	if err := work.CheckLease(d); err != nil {
		return err
	}
	*v.d = d
	return nil
}

// openRunStore opens the run store at location for a command: it rides
// out outages of up to outage (--store-outage), saying so on w, and records
// that this build runs command on it.
func openRunStore(ctx context.Context, location, command string, outage time.Duration, w io.Writer) (runstore.Store, error) {
	if outage < 0 {
		return nil, fmt.Errorf("%w: --store-outage must be ≥ 0, got %v", ErrUsage, outage)
	}
	rs, err := runstore.Open(ctx, location)
	if err != nil {
		return nil, err
	}
	rs.RideOutages(runstore.Outage{Wait: outage, Warn: warnLine(w)})
	if err := rs.RecordBuild(ctx, version.Current(), command, time.Now()); err != nil {
		return nil, errors.Join(fmt.Errorf("run store %s: recording this build: %w", rs.Location(), err), rs.Close())
	}
	return rs, nil
}
