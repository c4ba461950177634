package groundtruth_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/pgtest"
)

// TestOpensStoresOfVersion3: a store written at schema version 3 by the
// releases before the shared migrator (their DDL and ledger, frozen in
// testdata) opens with its three versions as they were recorded, upgraded
// by the later migrations, and reads as before (no source: measured here;
// no problem digest: stored before digests were).
func TestOpensStoresOfVersion3(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			stmts, err := os.ReadFile(filepath.Join("testdata", "v3-"+dialect+".sql"))
			if err != nil {
				t.Fatal(err)
			}
			s := openAt(t, storeOf(t, dialect, string(stmts)))
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
			if r := got["p1"]; err != nil || r.Cost != 10 || !r.Correct || r.LuckyGuess || r.CostRule != costrule.Completion || r.Source != "" || r.ProblemSHA256 != "" {
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

// TestOpensStoresOfVersion5: a store at schema version 5, the one before
// problem_sha256 (its migrations as this binary embeds them, the ledger as
// package sqldb writes it), upgrades; its ground truth and samples read as
// they were stored, of no problem digest (""), and measuring them again
// with a digest updates them.
func TestOpensStoresOfVersion5(t *testing.T) {
	const cols = "model, mode, dataset, problem_id, cost, correct, gradeable, finish_reason, " +
		"latency_us, response_sha256, error, measured_at, lucky_guess, cost_rule, source"
	for _, tc := range []struct {
		dialect, ledger string
		yes, no, at     string // the dialect's literals of true, false and a time
	}{
		{"sqlite", `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT`, "1", "0", "1700000000000000"},
		{"postgres", `CREATE TABLE schema_migrations (version bigint PRIMARY KEY, applied_at timestamptz NOT NULL)`, "true", "false", "'2023-11-14T22:13:20Z'"},
	} {
		t.Run(tc.dialect, func(t *testing.T) {
			ctx := context.Background()
			stmts := append([]string{tc.ledger}, migrationsUpTo(t, tc.dialect, 5)...)
			for v := 1; v <= 5; v++ {
				stmts = append(stmts, fmt.Sprintf("INSERT INTO schema_migrations (version, applied_at) VALUES (%d, %s)", v, tc.at))
			}
			row := func(cost int) string {
				return fmt.Sprintf("'m', 'standard', 'ds', 'p1', %d, %s, %s, 'stop', 5, '', '', %s, %s, 'completion', 'a.eval#id=1,epoch=%d'",
					cost, tc.yes, tc.yes, tc.at, tc.no, cost)
			}
			stmts = append(stmts,
				"INSERT INTO ground_truth ("+cols+") VALUES ("+row(1)+")",
				"INSERT INTO ground_truth_samples ("+cols+", sample) VALUES ("+row(2)+", 2)")
			loc := storeOf(t, tc.dialect, strings.Join(stmts, ";\n"))

			s := openAt(t, loc)
			ms, err := s.(groundtruth.MigrationLister).AppliedMigrations(ctx)
			latest, lerr := groundtruth.LatestSchemaVersion(tc.dialect)
			if err != nil || lerr != nil || int64(len(ms)) != latest || latest < 6 {
				t.Fatalf("applied %+v, %v, %v; want the %d versions recorded", ms, err, lerr, latest)
			}
			solver := groundtruth.Solver{Model: "m", Mode: "standard"}
			all, err := s.GetSamples(ctx, solver, "ds", []string{"p1"})
			if err != nil || len(all["p1"]) != 2 {
				t.Fatalf("samples of p1 = %+v, %v; want the ground truth and sample 2", all["p1"], err)
			}
			for j, r := range all["p1"] {
				if r.Cost != int64(j+1) || r.Source != fmt.Sprintf("a.eval#id=1,epoch=%d", j+1) || r.ProblemSHA256 != "" {
					t.Errorf("sample %d = %+v; want the stored record, of no problem digest", r.SampleIndex(), r)
				}
			}
			// Measured again on a known problem: the digest alone changes.
			digest := strings.Repeat("5e", 32)
			again := all["p1"]
			for j := range again {
				again[j].ProblemSHA256 = digest
			}
			st, err := s.Import(ctx, func(yield func(groundtruth.Record, error) bool) {
				_ = yield(again[0], nil) && yield(again[1], nil)
			})
			if err != nil || st.Updated != 2 {
				t.Fatalf("importing p1 with its digest: %+v, %v; want both samples updated", st, err)
			}
			all, err = s.GetSamples(ctx, solver, "ds", []string{"p1"})
			if err != nil || len(all["p1"]) != 2 || all["p1"][0].ProblemSHA256 != digest || all["p1"][1].ProblemSHA256 != digest {
				t.Errorf("samples of p1 = %+v, %v; want both of digest %s", all["p1"], err, digest)
			}
		})
	}
}

// migrationsUpTo returns the text of dialect's migrations 1..version, in
// order.
func migrationsUpTo(t *testing.T, dialect string, version int) []string {
	t.Helper()
	dir := filepath.Join("migrations", dialect)
	entries, err := os.ReadDir(dir) // sorted by name: by version
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		v, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if err != nil || v > version {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	if len(out) != version {
		t.Fatalf("%s holds %d migrations up to version %d", dir, len(out), version)
	}
	return out
}

// storeOf makes a database of dialect ("sqlite": a file in a temporary
// directory; "postgres": a fresh schema) holding what stmts make, and
// returns its location.
func storeOf(t *testing.T, dialect, stmts string) string {
	t.Helper()
	if dialect == "postgres" {
		loc := pgtest.Location(t)
		pgtest.Exec(t, loc, stmts)
		return loc
	}
	loc := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", loc)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmts); err != nil {
		t.Fatal(err)
	}
	return loc
}
