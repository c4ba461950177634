package llm

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// TestCacheOpensUnversionedCaches: a cache written before caches recorded
// a schema version (its DDL frozen in testdata) opens, keeps its responses,
// and is recorded at version 1 from then on.
func TestCacheOpensUnversionedCaches(t *testing.T) {
	for name, location := range cacheLocations(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			loc := location(t)
			stmts, err := os.ReadFile(filepath.Join("testdata", "cache-unversioned-"+name+".sql"))
			if err != nil {
				t.Fatal(err)
			}
			if sqldb.IsPostgres(loc) {
				pgtest.Exec(t, loc, string(stmts))
			} else {
				db, err := sql.Open("sqlite", loc)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := db.Exec(string(stmts)); err != nil {
					t.Fatal(err)
				}
				db.Close()
			}
			c := openTestCache(t, loc)
			got, ok, err := c.Get(ctx, "k")
			if err != nil || !ok || got.Content != "four" || got.Cost != 3 {
				t.Errorf("Get of the old response = %+v, %v, %v", got, ok, err)
			}
			applied, err := sqldb.VersionTable("llm_cache_migrations").Applied(ctx, c.db)
			// 0001 adopts the old table; 0002 adds the batch tables; 0003
			// marks their items reported or not.
			if err != nil || len(applied) != 3 || applied[0].Version != 1 || applied[1].Version != 2 || applied[2].Version != 3 {
				t.Errorf("versions recorded: %+v, %v; want 1, 2, 3", applied, err)
			}
		})
	}
}
