package groundtruth_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/pgtest"
)

// TestOpensStoresOfVersion3: a store written at schema version 3 by the
// releases before the shared migrator (their DDL and ledger, frozen in
// testdata) opens with its three versions as they were recorded, upgraded
// by the later migrations, and reads as before (no source: measured here).
func TestOpensStoresOfVersion3(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			stmts, err := os.ReadFile(filepath.Join("testdata", "v3-"+dialect+".sql"))
			if err != nil {
				t.Fatal(err)
			}
			var loc string
			if dialect == "postgres" {
				loc = pgtest.Location(t)
				pgtest.Exec(t, loc, string(stmts))
			} else {
				loc = filepath.Join(t.TempDir(), "v3.db")
				db, err := sql.Open("sqlite", loc)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := db.Exec(string(stmts)); err != nil {
					t.Fatal(err)
				}
				db.Close()
			}
			s := openAt(t, loc)
			ms, err := s.(groundtruth.MigrationLister).AppliedMigrations(ctx)
			latest, lerr := groundtruth.LatestSchemaVersion(dialect)
			if err != nil || lerr != nil || int64(len(ms)) != latest {
				t.Fatalf("applied %+v, %v, %v; want the %d versions recorded", ms, err, lerr, latest)
			}
			for i, m := range ms[:3] {
				if want := time.Unix(1700000000+int64(i), 0).UTC(); m.Version != int64(i+1) || !m.AppliedAt.Equal(want) {
					t.Errorf("applied[%d] = %+v, want version %d at %v", i, m, i+1, want)
				}
			}
			got, err := s.Get(ctx, groundtruth.Solver{Model: "m", Mode: "standard"}, "ds", []string{"p1"})
			if r := got["p1"]; err != nil || r.Cost != 10 || !r.Correct || r.LuckyGuess || r.CostRule != costrule.Completion || r.Source != "" {
				t.Errorf("p1 = %+v, %v; want the stored record", r, err)
			}
			// The upgraded store keeps further samples beside its ground truth.
			solver := groundtruth.Solver{Model: "m", Mode: "standard"}
			sample := groundtruth.Record{Key: groundtruth.Key{Solver: solver, Dataset: "ds", ProblemID: "p1"},
				Cost: 12, CostRule: costrule.Completion, Gradeable: true, MeasuredAt: time.Unix(1700000100, 0).UTC(), Sample: 2}
			if st, err := s.Import(ctx, func(yield func(groundtruth.Record, error) bool) { yield(sample, nil) }); err != nil || st.Inserted != 1 {
				t.Fatalf("importing sample 2 into the upgraded store: %+v, %v", st, err)
			}
			all, err := s.GetSamples(ctx, solver, "ds", []string{"p1"})
			if err != nil || len(all["p1"]) != 2 || all["p1"][0].Cost != 10 || all["p1"][1] != sample {
				t.Errorf("samples of p1 = %+v, %v; want the ground truth then sample 2", all["p1"], err)
			}
		})
	}
}
