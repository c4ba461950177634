package groundtruth_test

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/groundtruth/storetest"
	"github.com/triage-eval/triage/internal/store/pgtest"
)

func TestPostgresConformance(t *testing.T) {
	storetest.Run(t, storetest.Harness{Dialect: "postgres", Open: postgresHarness(t)})
}

// postgresHarness returns an opener that maps each name to a fresh schema
// of its test, created on first use and dropped when the test ends.
func postgresHarness(t *testing.T) func(t *testing.T, name string) groundtruth.Store {
	pgtest.DSN(t)
	return func(t *testing.T, name string) groundtruth.Store {
		t.Helper()
		return openAt(t, locationFor(t, name))
	}
}

// openPostgresTest opens a store in a fresh schema, dropped at cleanup.
func openPostgresTest(t testing.TB) groundtruth.Store {
	return openAt(t, pgtest.Location(t))
}

// locations remembers, per test, the schema's location each harness name
// maps to.
var (
	locationsMu sync.Mutex
	locations   = map[string]string{}
)

// locationFor returns the location of name in test t, creating its schema
// on first use.
func locationFor(t testing.TB, name string) string {
	key := t.Name() + "\x00" + name
	locationsMu.Lock()
	defer locationsMu.Unlock()
	if loc, ok := locations[key]; ok {
		return loc
	}
	loc := pgtest.Location(t)
	locations[key] = loc
	t.Cleanup(func() {
		locationsMu.Lock()
		defer locationsMu.Unlock()
		delete(locations, key)
	})
	return loc
}

// openAt opens the store at loc, closed when t ends.
func openAt(t testing.TB, loc string) groundtruth.Store {
	t.Helper()
	s, err := groundtruth.Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestPostgresRefusesNewerSchema(t *testing.T) {
	loc := pgtest.Location(t)
	s := openAt(t, loc)
	s.Close()
	pgtest.Exec(t, loc, "INSERT INTO schema_migrations (version, applied_at) VALUES (999, now())")
	u, _ := url.Parse(loc)
	s2, err := groundtruth.Open(context.Background(), loc)
	if err == nil {
		s2.Close()
		t.Fatal("Open of a newer database succeeded")
	}
	if !strings.Contains(err.Error(), "999") || !strings.Contains(err.Error(), u.Host) {
		t.Fatalf("Open of a newer database: %v; want an error naming the version and the location", err)
	}
}

// TestPostgresUpgradesVersion2 opens a schema at version 2 (before
// cost_rule): its rows read back with their cost of unknown rule, and a
// re-measured record replaces one with its rule.
func TestPostgresUpgradesVersion2(t *testing.T) {
	loc := pgtest.Location(t)
	pgtest.Exec(t, loc, `CREATE TABLE schema_migrations (version bigint PRIMARY KEY, applied_at timestamptz NOT NULL)`)
	for _, f := range []string{"0001_ground_truth.sql", "0002_lucky_guess.sql"} {
		b, err := os.ReadFile(filepath.Join("migrations", "postgres", f))
		if err != nil {
			t.Fatal(err)
		}
		pgtest.Exec(t, loc, string(b))
	}
	pgtest.Exec(t, loc, `INSERT INTO schema_migrations (version, applied_at) VALUES (1, now()), (2, now())`)
	pgtest.Exec(t, loc, `INSERT INTO ground_truth VALUES
		('m', 'extended', 'ds', 'p1', 86, true, true, 'stop', 5, '', '', '2023-11-14T22:13:20Z', false),
		('m', 'extended', 'ds', 'p2', 0, false, false, '', 0, '', 'model call failed', '2023-11-14T22:13:20Z', false)`)
	upgradedKeepsCosts(t, openAt(t, loc))
}

func TestPostgresConcurrentOpen(t *testing.T) {
	loc := pgtest.Location(t)
	var wg sync.WaitGroup
	stores := make([]groundtruth.Store, 4)
	for i := range stores {
		wg.Go(func() { stores[i] = openAt(t, loc) })
	}
	wg.Wait()
	for _, s := range stores {
		if s == nil {
			t.FailNow() // openAt reported why
		}
		ms, err := s.(groundtruth.MigrationLister).AppliedMigrations(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if latest, _ := groundtruth.LatestSchemaVersion("postgres"); int64(len(ms)) != latest {
			t.Fatalf("%d migrations recorded, want %d", len(ms), latest)
		}
	}
}

func TestPostgresOpenErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		location, want string
	}{
		// Nothing listens on port 1.
		{"postgres://u:hunter2@127.0.0.1:1/db?sslmode=disable&connect_timeout=2", "127.0.0.1:1"},
		{"postgresql://u:hunter2@127.0.0.1:1/db?sslmode=bogus", "127.0.0.1:1"},
	}
	for _, tc := range tests {
		s, err := groundtruth.Open(ctx, tc.location)
		if err == nil {
			s.Close()
			t.Fatalf("Open(%q) succeeded", tc.location)
		}
		if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Open error %q; want it to name %q and hide the password", err, tc.want)
		}
	}
}

func TestPostgresRejectsUnstorableText(t *testing.T) {
	s := openPostgresTest(t)
	ctx := context.Background()
	g := storetest.Gen{Models: 1, Datasets: 1, Problems: 20}
	for _, tc := range []struct{ field, value string }{{"problem_id", "p\x00"}, {"error", "bad \xff"}} {
		bad := func(yield func(groundtruth.Record, error) bool) {
			for r := range g.Records() {
				if r.ProblemID == storetest.ProblemID(7) {
					if tc.field == "problem_id" {
						r.ProblemID = tc.value
					} else {
						r.Error = tc.value
					}
				}
				if !yield(r, nil) {
					return
				}
			}
		}
		_, err := s.Import(ctx, bad)
		var inv *apperr.InvalidArgumentError
		if !errors.As(err, &inv) || inv.Violations[0].Field != tc.field {
			t.Fatalf("Import with a bad %s: %v; want an InvalidArgumentError naming it", tc.field, err)
		}
		if has, err := s.HasSolver(ctx, storetest.Solver(0, 0)); err != nil || has {
			t.Fatalf("HasSolver after a rejected import = %v, %v", has, err)
		}
	}
}
