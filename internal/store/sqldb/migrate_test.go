package sqldb

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// testSchema has two versions on each dialect; PostgreSQL's second has
// nothing to do.
func testSchema() Schema {
	return Schema{
		Files: fstest.MapFS{
			"m/sqlite/0001_t.sql":    {Data: []byte("-- t holds k.\nCREATE TABLE t (k TEXT PRIMARY KEY);")},
			"m/sqlite/0002_u.sql":    {Data: []byte("ALTER TABLE t ADD COLUMN u TEXT NOT NULL DEFAULT '';")},
			"m/postgres/0001_t.sql":  {Data: []byte("CREATE TABLE t (k text PRIMARY KEY, u text NOT NULL DEFAULT '');")},
			"m/postgres/0002_u.sql":  {Data: []byte("-- u is part of version 1 here.\n")},
			"m/postgres/README.md":   {Data: []byte("not a migration")},
			"m/sqlite/notes/x.sql/a": {Data: []byte("a directory is skipped")},
		},
		Dir:    "m",
		Ledger: VersionTable("test_migrations"),
		Lock:   "triage/sqldb-test:",
	}
}

// migrationBackends runs test on a fresh SQLite file and, when
// TRIAGE_TEST_POSTGRES_DSN is set, a fresh PostgreSQL schema.
func migrationBackends(t *testing.T, test func(t *testing.T, location string)) {
	t.Run("sqlite", func(t *testing.T) { test(t, filepath.Join(t.TempDir(), "m.db")) })
	t.Run("postgres", func(t *testing.T) { test(t, pgtest.Location(t)) })
}

func openForMigrations(t *testing.T, location string) *DB {
	t.Helper()
	db, err := Open(context.Background(), location, Options{SQLite: sqlitedsn.Options{ImmediateTx: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestSchemaMigrations(t *testing.T) {
	s := testSchema()
	for _, d := range []Dialect{SQLite, Postgres} {
		ms, err := s.Migrations(d)
		if err != nil || len(ms) != 2 || ms[0].Version != 1 || ms[1].Name != "0002_u.sql" {
			t.Fatalf("%s migrations = %+v, %v", d, ms, err)
		}
	}
	bad := fstest.MapFS{"sqlite/0001_a.sql": {}, "sqlite/0003_c.sql": {}, "postgres/x_a.sql": {}}
	if _, err := (Schema{Files: bad}).Migrations(SQLite); err == nil || !strings.Contains(err.Error(), "expected version 2") {
		t.Errorf("a gap: %v", err)
	}
	if _, err := (Schema{Files: bad}).Migrations(Postgres); err == nil || !strings.Contains(err.Error(), "positive version") {
		t.Errorf("a name without a version: %v", err)
	}
	if _, err := (Schema{Files: bad}).Migrations("oracle"); err == nil {
		t.Error("migrations of an unknown dialect")
	}
}

// TestMigrate: a fresh database gets every step, recorded in its ledger; a
// database up to date is left alone; one newer than the schema is refused,
// naming its location and version.
func TestMigrate(t *testing.T) {
	migrationBackends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		db := openForMigrations(t, location)
		s := testSchema()
		if err := db.Migrate(ctx, s); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO t (k, u) VALUES (?, ?)`, "a", "b"); err != nil {
			t.Fatal(err)
		}
		applied, err := VersionTable("test_migrations").Applied(ctx, db)
		if err != nil || len(applied) != 2 || applied[1].Version != 2 || applied[0].AppliedAt.IsZero() {
			t.Fatalf("applied %+v, %v", applied, err)
		}
		if err := db.Migrate(ctx, s); err != nil {
			t.Fatalf("migrating again: %v", err)
		}
		again, _ := VersionTable("test_migrations").Applied(ctx, db)
		if len(again) != 2 || !again[0].AppliedAt.Equal(applied[0].AppliedAt) {
			t.Errorf("after migrating again: %+v, want %+v", again, applied)
		}
		newer := `INSERT INTO test_migrations (version, applied_at) VALUES (7, 0)`
		if db.Dialect == Postgres {
			newer = `INSERT INTO test_migrations (version, applied_at) VALUES (7, now())`
		}
		if _, err := db.ExecContext(ctx, newer); err != nil {
			t.Fatal(err)
		}
		err = db.Migrate(ctx, s)
		if err == nil || !strings.Contains(err.Error(), "version 7") || !strings.Contains(err.Error(), "newer") {
			t.Errorf("migrating a newer database: %v", err)
		}
	})
}

// TestMigrateConcurrently: processes opening a fresh database together
// apply each step once.
func TestMigrateConcurrently(t *testing.T) {
	migrationBackends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				db, err := Open(ctx, location, Options{SQLite: sqlitedsn.Options{ImmediateTx: true}})
				if err != nil {
					errs <- err
					return
				}
				defer db.Close()
				errs <- db.Migrate(ctx, testSchema())
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		applied, err := VersionTable("test_migrations").Applied(ctx, openForMigrations(t, location))
		if err != nil || len(applied) != 2 {
			t.Errorf("applied %+v, %v", applied, err)
		}
	})
}
