package runstore

import (
	"context"
	"time"

	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/protocol/pools"
)

// Store holds a run's manifest, plans, scores, re-solves and the claims of
// the workers computing them. Open returns one on either backend; both run
// the same SQL and pass the same conformance suite. Operations ride out an
// outage of the store as Outage says, except those a caller does again
// anyway or that only inform (RenewAll, ReleaseKeys, RecordBuild, Builds),
// which try once. A Store is safe for concurrent use.
type Store interface {
	// SaveManifest records the config and pools of the latest run. A changed
	// partition (problems added or removed) replaces the old one: the cells of
	// changed pools have other fingerprints, so they are stale and recomputed.
	SaveManifest(ctx context.Context, config, pools []byte) error

	// SaveGrid records, in one transaction, the grid a run is about to work
	// through: the fingerprint each of its cells must have to be fresh, and the
	// base accuracies it was laid out from. Both replace what an earlier run
	// recorded, so that a report describes the latest grid. Workers of one run
	// record the same grid, so the rows are upserted (never deleted and
	// inserted again) and concurrent saves agree. Saved by a named worker
	// (by.Worker), it is refused with a *GridInUseError, and nothing is
	// written, when the grid stored differs while another worker holds a
	// claim that has not expired at by.Now: workers of one run must share
	// its config, or they would overwrite each other's grid and mix their
	// cells. A grid recorded by a run that has ended is replaced.
	SaveGrid(ctx context.Context, fingerprints map[string]string, accuracy []Accuracy, by GridSaver) error

	// Manifest returns the pools the latest run recorded. Runs stored before
	// injection recorded the partition alone; it is read as such.
	Manifest(ctx context.Context) (Manifest, error)

	// Pools returns the pool partition the run recorded, by dataset.
	Pools(ctx context.Context) (map[string][]pools.Pool, error)

	// Cells returns every stored cell by key.
	Cells(ctx context.Context) (map[string]StoredCell, error)

	// Plan returns the planner response stored for a cell and whether the cell
	// is stored.
	Plan(ctx context.Context, key string) (StoredPlan, bool, error)

	// EachScoredPlan calls fn with the key and stored plan (as Plan gives
	// it) of every cell stored scored (not excluded), one at a time, so
	// that a caller keeps only what it needs of each. After an outage the
	// reading starts again: fn may see a key twice and must not mind.
	EachScoredPlan(ctx context.Context, fn func(key string, plan []byte) error) error

	// Results returns the records and accuracies of the latest grid, with the
	// records of stale cells excluded as ExcludedStale.
	Results(ctx context.Context) (Results, error)

	// ResultsAgainst is Results judged against the grid as it is now, not
	// as the last run saved it: current holds each cell's fingerprint by
	// key and the base accuracies, computed from the inputs of today
	// (orchestrator.Runner.CurrentGrid). A cell whose inputs changed since
	// it was computed is stale even when no run has said so yet.
	ResultsAgainst(ctx context.Context, current Current) (Results, error)

	// ClaimKeys gives worker each of keys (cells, baseline items, re-solves)
	// until until that nobody holds or whose holder's lease ended before now
	// (a dead or lost worker), and returns the keys taken; a worker that
	// already holds a key renews it. One statement does it, atomically on
	// both backends, so two workers never hold one unit: this is how several
	// processes, on one machine or many (PostgreSQL), share a run.
	ClaimKeys(ctx context.Context, keys []string, worker string, now, until time.Time) (map[string]bool, error)

	// ClaimCells claims, as ClaimKeys does, each cell of keys that is not stored
	// fresh (with the fingerprint at the same index of fingerprints, and not
	// failed: another worker finished it); a stale or failed attempt is
	// claimed, to be replaced. It returns the keys taken. A stored cell gets
	// no write at all; a cell another worker's save stores while the claim
	// is made is not taken either: on PostgreSQL, whose claim reads cells on
	// its statement's snapshot, a second statement gives back the claims on
	// cells stored meanwhile (one round trip more, only when some were taken).
	ClaimCells(ctx context.Context, keys, fingerprints []string, worker string, now, until time.Time) (map[string]bool, error)

	// RenewAll extends every lease worker holds until until, in one
	// statement; the leases other workers took over stay theirs.
	RenewAll(ctx context.Context, worker string, until time.Time) error

	// ReleaseKeys gives up worker's claims on keys, in one statement; keys
	// it no longer holds stay with their holders.
	ReleaseKeys(ctx context.Context, worker string, keys []string) error

	// Holders returns every claimed key with when its lease ends.
	Holders(ctx context.Context) (map[string]time.Time, error)

	// SaveBudgetAware stores one re-solve, replacing an earlier one.
	SaveBudgetAware(ctx context.Context, r BudgetAwareResult) error

	// SaveBudgetAwareGrid records the re-solves the latest budget-aware run
	// selected, each with the fingerprint a fresh result must have; it replaces
	// the earlier selection.
	SaveBudgetAwareGrid(ctx context.Context, fingerprints map[BudgetAwareKey]string) error

	// BudgetAware returns the stored re-solves of the latest selection whose
	// inputs are unchanged, in key order, and how the stored re-solves compare
	// with that selection (Freshness: stale ones are left out, not mixed in).
	// A run store whose selection was never recorded returns every re-solve,
	// Unchecked.
	BudgetAware(ctx context.Context) ([]BudgetAwareResult, Freshness, error)

	// AllBudgetAware returns every stored re-solve, selected or not, fresh or
	// not, in key order.
	AllBudgetAware(ctx context.Context) ([]BudgetAwareResult, error)

	// RecordBuild records that build started command on the run at now: a new
	// row for a build and command not seen before, else its last use.
	RecordBuild(ctx context.Context, build version.Info, command string, now time.Time) error

	// Builds lists the builds that touched the run, first used first.
	Builds(ctx context.Context) ([]BuildUse, error)

	// Reserve holds r.Dollars against capDollars for one model call, in one
	// transaction (serialized across workers), when what is settled plus
	// what unlapsed reservations hold plus r.Dollars stays within the cap;
	// it returns whether it did and the spend it found (with r when held).
	Reserve(ctx context.Context, r Reservation, capDollars float64, now time.Time) (bool, Spent, error)

	// Settle records what call id cost, replacing its reservation if it
	// had one (an uncapped run records calls without reserving them).
	Settle(ctx context.Context, id string, s Settlement, now time.Time) error

	// Release drops reservation id unsettled: its call was not made, or the
	// cache answered it.
	Release(ctx context.Context, id string) error

	// Spend returns the settled spend per phase and endpoint.
	Spend(ctx context.Context) ([]SpendRow, error)

	// FreshCells returns the fingerprint of each cell of keys stored fresh
	// (not failed), by key; it reads those cells only.
	FreshCells(ctx context.Context, keys []string) (map[string]string, error)

	// CellSaver returns the store's saver of cells for one run (statements
	// prepared once on SQLite); Close it after the run. Its Save stores each
	// cell once, replacing a stale or failed attempt, never a fresh one, and
	// releases the saving worker's claims.
	CellSaver(ctx context.Context) (*CellSaver, error)

	// RideOutages sets how the store rides out outages; Open sets
	// DefaultOutage and no warnings.
	RideOutages(o Outage)

	// Location is where the store is (any password masked).
	Location() string

	// Close closes the store.
	Close() error
}
