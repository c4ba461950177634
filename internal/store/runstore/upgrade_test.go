package runstore

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// loadFixture runs the statements of testdata/name on the database at
// location, as the release that wrote the fixture would have left it.
func loadFixture(t *testing.T, location, name string) {
	t.Helper()
	stmts, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if sqldb.IsPostgres(location) {
		pgtest.Exec(t, location, string(stmts))
		return
	}
	db, err := sql.Open("sqlite", location)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(stmts)); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestOpensStoresOfVersion5: a run store written at schema version 5 by
// the releases before the shared migrator (their DDL and version record,
// frozen in testdata) opens, upgraded to version 6 (the spend table) with
// its version kept in the same place, and reads and takes writes as before.
func TestOpensStoresOfVersion5(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		fixture := "v5-sqlite.sql"
		if sqldb.IsPostgres(location) {
			fixture = "v5-postgres.sql"
		}
		loadFixture(t, location, fixture)
		rs := openTest(t, location)
		if v, err := (versionLedger{}).Version(ctx, rs.db, rs.db.Dialect); err != nil || v != 6 {
			t.Fatalf("schema version after opening: %d, %v; want 6, where it was", v, err)
		}
		if ok, _, err := rs.Reserve(ctx, Reservation{ID: "r", Phase: "p", Endpoint: "e", CallKey: "k", Dollars: 1, Until: time.Now().Add(time.Hour)}, 2, time.Now()); !ok || err != nil {
			t.Errorf("reserving spend after the upgrade: %v, %v", ok, err)
		}
		res, err := rs.Results(ctx)
		if err != nil || res.Freshness != (Freshness{Fresh: 1}) || len(res.Records) != 1 || *res.Records[0].Eta != 0.5 {
			t.Fatalf("results: %+v, %v", res, err)
		}
		if a := res.Accuracy; len(a) != 1 || a[0] != (Accuracy{Model: "m", Mode: "standard", Dataset: "d", Correct: 3, Gradeable: 4, Unsolvable: 1, PublicTestsOnly: 2}) {
			t.Errorf("accuracy %+v", a)
		}
		if m, err := rs.Manifest(ctx); err != nil || len(m.Partitions["d"]) != 1 {
			t.Errorf("manifest %+v, %v", m, err)
		}
		ba, f, err := rs.BudgetAware(ctx)
		if err != nil || len(ba) != 1 || !ba[0].Correct || f.Fresh != 1 {
			t.Errorf("re-solves %+v, %+v, %v", ba, f, err)
		}
		if b, err := rs.Builds(ctx); err != nil || len(b) != 1 || b[0].Build.Version != "v1.0.0" {
			t.Errorf("builds %+v, %v", b, err)
		}
		if h, err := rs.Holders(ctx); err != nil || len(h) != 1 {
			t.Errorf("claims %+v, %v", h, err)
		}
		if !saveOne(t, rs, "k2", "fp2", "w", "", scored("k2", 0.25)) {
			t.Error("a new cell was not stored")
		}
	})
}

// TestRunStoreUpgradesVersion1 opens a SQLite run store of the first
// releases, written before versions and fingerprints (frozen in testdata):
// its cells survive, count as stale (nothing says what they were computed
// from) and the report says freshness is unchecked until the next run.
func TestRunStoreUpgradesVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	loadFixture(t, path, "v0-sqlite.sql")
	rs := openTest(t, path)
	cells, err := rs.Cells(ctx)
	if err != nil || cells["k"].Fingerprint != "" {
		t.Fatalf("cells %+v, %v", cells, err)
	}
	res, err := rs.Results(ctx)
	if err != nil || !res.Freshness.Unchecked || len(res.Records) != 1 || len(res.Accuracy) != 1 || res.Accuracy[0].Correct != 3 || res.Accuracy[0].PublicTestsOnly != 0 {
		t.Fatalf("results of an upgraded store: %+v, %v", res, err)
	}
	if !claimOne(t, rs, "k", "w", time.Now()) {
		t.Error("a cell could not be claimed after the upgrade")
	}
	if err := rs.RecordBuild(ctx, version.Info{Version: "v1.0.0", Go: "go1.26.8"}, "report", time.Now()); err != nil {
		t.Errorf("builds after the upgrade: %v", err)
	}
	if v, err := (versionLedger{}).Version(ctx, rs.db, rs.db.Dialect); err != nil || v != 6 {
		t.Errorf("schema version after the upgrade: %d, %v; want 6", v, err)
	}
}
