package runstore

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/store/sqldb"
)

// TestOpenToRead: a run store opened to read gives what is stored and
// takes no write; one written by an older triage is brought up to date
// first (as Open does); a database that holds no run store is an error and
// is left as it was.
func TestOpenToRead(t *testing.T) {
	t.Run("this schema", func(t *testing.T) { backends(t, readsWithoutWriting) })
	t.Run("version 5", func(t *testing.T) { backends(t, upgradesFirst) })
	t.Run("no run store", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "other.db")
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`CREATE TABLE problems (id TEXT)`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		before, _ := os.ReadFile(path)
		if _, err := OpenToRead(context.Background(), path); err == nil || !strings.Contains(err.Error(), "holds no run store") {
			t.Errorf("OpenToRead = %v, want an error saying it holds no run store", err)
		}
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Error("the file was changed")
		}
	})
}

// readsWithoutWriting: a store opened to read gives what is stored and
// takes no write.
func readsWithoutWriting(t *testing.T, location string) {
	ctx := context.Background()
	rs := openTest(t, location)
	if !saveOne(t, rs, "k", "fp", "w", "", scored("k", 0.5)) {
		t.Fatal("the cell was not stored")
	}
	if err := rs.Close(); err != nil {
		t.Fatal(err)
	}
	read, err := OpenToRead(ctx, location)
	if err != nil {
		t.Fatal(err)
	}
	defer read.Close()
	res, err := read.Results(ctx)
	if err != nil || len(res.Records) != 1 || *res.Records[0].Eta != 0.5 {
		t.Fatalf("results %+v, %v", res, err)
	}
	saver, err := read.CellSaver(ctx)
	if err == nil {
		_, err = saver.Save(ctx, "w", []CellOutcome{{Key: "k2", Fingerprint: "fp", DoneAt: 1, Scores: []ScoreRecord{scored("k2", 1)}}})
		saver.Close()
	}
	if err == nil {
		t.Error("a store opened to read took a write")
	}
}

// upgradesFirst: a store of schema version 5 opened to read is brought up
// to date and read.
func upgradesFirst(t *testing.T, location string) {
	fixture := "v5-sqlite.sql"
	if sqldb.IsPostgres(location) {
		fixture = "v5-postgres.sql"
	}
	loadFixture(t, location, fixture)
	read, err := OpenToRead(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	defer read.Close()
	db := read.(*sqlStore).db
	latest, err := schema().Latest(db.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := (versionLedger{}).Version(context.Background(), db, db.Dialect); err != nil || v != latest {
		t.Errorf("schema version %d, %v; want %d", v, err, latest)
	}
	if res, err := read.Results(context.Background()); err != nil || len(res.Records) != 1 {
		t.Fatalf("results of a version 5 store: %+v, %v", res, err)
	}
}
