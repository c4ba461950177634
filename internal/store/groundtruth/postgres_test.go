package groundtruth_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/groundtruth/storetest"
)

// postgresDSNEnv names the variable holding the DSN of a PostgreSQL server
// the tests may create schemas in; without it they skip.
const postgresDSNEnv = "TRIAGE_TEST_POSTGRES_DSN"

func TestPostgresConformance(t *testing.T) {
	storetest.Run(t, storetest.Harness{Dialect: "postgres", Open: postgresHarness(t)})
}

// postgresHarness returns an opener that maps each name to a fresh schema
// of its test, created on first use and dropped when the test ends.
func postgresHarness(t *testing.T) func(t *testing.T, name string) groundtruth.Store {
	base := postgresDSN(t)
	return func(t *testing.T, name string) groundtruth.Store {
		t.Helper()
		return openInSchema(t, base, schemaFor(t, base, name))
	}
}

// postgresDSN returns the test server's DSN or skips t.
func postgresDSN(t testing.TB) string {
	dsn := os.Getenv(postgresDSNEnv)
	if dsn == "" {
		t.Skipf("%s not set; skipping PostgreSQL tests (e.g. %s='postgres://postgres@127.0.0.1:5432/test?sslmode=disable')", postgresDSNEnv, postgresDSNEnv)
	}
	return dsn
}

// openPostgresTest opens a store in a fresh schema, dropped at cleanup.
func openPostgresTest(t testing.TB) groundtruth.Store {
	base := postgresDSN(t)
	return openInSchema(t, base, newSchema(t, base))
}

// schemas remembers, per test, the schema each harness name maps to.
var (
	schemasMu sync.Mutex
	schemas   = map[string]string{}
)

// schemaFor returns the schema of name in test t, creating it on first use.
func schemaFor(t testing.TB, base, name string) string {
	key := t.Name() + "\x00" + name
	schemasMu.Lock()
	defer schemasMu.Unlock()
	if s, ok := schemas[key]; ok {
		return s
	}
	s := newSchema(t, base)
	schemas[key] = s
	t.Cleanup(func() {
		schemasMu.Lock()
		defer schemasMu.Unlock()
		delete(schemas, key)
	})
	return s
}

// newSchema creates a uniquely named schema and drops it when t ends.
func newSchema(t testing.TB, base string) string {
	t.Helper()
	var b [8]byte
	rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	exec(t, base, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { exec(t, base, "DROP SCHEMA "+schema+" CASCADE") })
	return schema
}

// openInSchema opens the store with search_path set to schema.
func openInSchema(t testing.TB, base, schema string) groundtruth.Store {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	s, err := groundtruth.Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// exec runs one statement on a direct connection to base.
func exec(t testing.TB, base, sql string, args ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func TestPostgresRefusesNewerSchema(t *testing.T) {
	base := postgresDSN(t)
	schema := newSchema(t, base)
	s := openInSchema(t, base, schema)
	s.Close()
	exec(t, base, "INSERT INTO "+schema+".schema_migrations (version, applied_at) VALUES (999, now())")
	u, _ := url.Parse(base)
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	s2, err := groundtruth.Open(context.Background(), u.String())
	if err == nil {
		s2.Close()
		t.Fatal("Open of a newer database succeeded")
	}
	if !strings.Contains(err.Error(), "999") || !strings.Contains(err.Error(), u.Host) {
		t.Fatalf("Open of a newer database: %v; want an error naming the version and the location", err)
	}
}

func TestPostgresConcurrentOpen(t *testing.T) {
	base := postgresDSN(t)
	schema := newSchema(t, base)
	var wg sync.WaitGroup
	stores := make([]groundtruth.Store, 4)
	for i := range stores {
		wg.Go(func() { stores[i] = openInSchema(t, base, schema) })
	}
	wg.Wait()
	for _, s := range stores {
		if s == nil {
			t.FailNow() // openInSchema reported why
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
