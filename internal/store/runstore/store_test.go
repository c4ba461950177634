package runstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/store/pgtest"
)

// backends runs a run-store test on every backend: a SQLite file, and a
// PostgreSQL schema of the test's own when TRIAGE_TEST_POSTGRES_DSN is set.
// location returns where the test's store lives (the same on every call).
func backends(t *testing.T, test func(t *testing.T, location string)) {
	t.Run("sqlite", func(t *testing.T) { test(t, filepath.Join(t.TempDir(), "run.db")) })
	t.Run("postgres", func(t *testing.T) { test(t, pgtest.Location(t)) })
}

func openTest(t *testing.T, location string) *sqlStore {
	t.Helper()
	rs, err := Open(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	return rs.(*sqlStore)
}

func scored(key string, eta float64) ScoreRecord {
	return ScoreRecord{Model: "m", Mode: "standard", Dataset: key, Regime: "U", Value: 1, Oracle: 2, Random: 0, Eta: &eta}
}

// saveOne stores one cell as worker with a CellSaver of its own and
// reports whether it was stored.
func saveOne(t *testing.T, rs *sqlStore, key, fp, worker, excluded string, scores ...ScoreRecord) bool {
	t.Helper()
	ctx := context.Background()
	saver, err := rs.CellSaver(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer saver.Close()
	stored, err := saver.Save(ctx, worker, []CellOutcome{{Key: key, Fingerprint: fp, Excluded: excluded, DoneAt: 1, Scores: scores}})
	if err != nil {
		t.Fatal(err)
	}
	return stored[key]
}

// claimOne claims key as worker from now for a minute and reports whether
// worker holds it.
func claimOne(t *testing.T, rs *sqlStore, key, worker string, now time.Time) bool {
	t.Helper()
	taken, err := rs.ClaimKeys(context.Background(), []string{key}, worker, now, now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	return taken[key]
}

// TestResultsExcludeStaleCells: a report made after the grid changed but
// before the cells were recomputed (a run stopped early) shows the stale
// cells as excluded, never as results, and leaves out cells the grid no
// longer has.
func TestResultsExcludeStaleCells(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		for key, fp := range map[string]string{"fresh": "a", "stale": "b", "outside": "c"} {
			saveOne(t, rs, key, fp, "w", "", scored(key, 0.5))
		}
		if err := rs.SaveGrid(ctx, map[string]string{"fresh": "a", "stale": "b2", "pending": "d"}, nil, GridSaver{}); err != nil {
			t.Fatal(err)
		}
		res, err := rs.Results(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := (Freshness{Fresh: 1, Stale: 1, Pending: 1, Outside: 1}); res.Freshness != want {
			t.Errorf("freshness %+v, want %+v", res.Freshness, want)
		}
		if len(res.Records) != 2 {
			t.Fatalf("records %+v, want fresh and stale", res.Records)
		}
		for _, r := range res.Records {
			switch r.Dataset {
			case "fresh":
				if r.Excluded != "" || r.Eta == nil {
					t.Errorf("fresh record %+v", r)
				}
			case "stale":
				if r.Excluded != ExcludedStale || r.Eta != nil {
					t.Errorf("stale record %+v: want excluded as stale, η null", r)
				}
			default:
				t.Errorf("unexpected record %+v", r)
			}
		}
		// The cell recomputed: fresh again, its old regime rows replaced.
		if !saveOne(t, rs, "stale", "b2", "w", "", scored("stale", 0.25)) {
			t.Fatal("a stale cell was not replaced")
		}
		res, _ = rs.Results(ctx)
		if res.Freshness.Stale != 0 || res.Freshness.Fresh != 2 {
			t.Errorf("after recomputing: %+v", res.Freshness)
		}
		if fresh, err := rs.FreshCells(ctx, []string{"fresh", "stale", "outside", "never"}); err != nil || !maps.Equal(fresh, map[string]string{"fresh": "a", "stale": "b2", "outside": "c"}) {
			t.Errorf("FreshCells = %v, %v; want every cell asked for and stored, with its latest fingerprint", fresh, err)
		}
		if fresh, err := rs.FreshCells(ctx, []string{"stale"}); err != nil || !maps.Equal(fresh, map[string]string{"stale": "b2"}) {
			t.Errorf("FreshCells(stale) = %v, %v; want that cell only", fresh, err)
		}
	})
}

// TestCellsAreStoredOnce: a fresh cell is never overwritten (the second
// worker's outcome is dropped); a failed or stale one is.
func TestCellsAreStoredOnce(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		rs := openTest(t, location)
		if !saveOne(t, rs, "k", "f1", "a", "", scored("k", 0.5)) {
			t.Fatal("first save not stored")
		}
		if saveOne(t, rs, "k", "f1", "b", "", scored("k", 0.9)) {
			t.Error("a second save of a fresh cell was stored")
		}
		res, _ := rs.Results(context.Background())
		if len(res.Records) != 1 || *res.Records[0].Eta != 0.5 {
			t.Errorf("records %+v, want the first save's", res.Records)
		}
		if !saveOne(t, rs, "e", "f1", "a", string(metrics.ExcludedError), scored("e", 0)) || !saveOne(t, rs, "e", "f1", "b", "", scored("e", 0.7)) {
			t.Error("a failed cell was not replaced by its retry")
		}
		if !saveOne(t, rs, "k", "f2", "b", "", scored("k", 0.1)) {
			t.Error("a stale cell was not replaced")
		}
	})
}

// TestSaveStoresAGroupAsInTurn: cells saved together (one statement on
// PostgreSQL, one transaction on SQLite) are stored as if saved one after
// another: new, stale and failed cells written, a fresh one kept, a key
// given twice stored once (the first), the old scores of a replaced cell
// for regimes it no longer has deleted, and the saver's claims released.
func TestSaveStoresAGroupAsInTurn(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		withRegime := func(r ScoreRecord, regime string) ScoreRecord { r.Regime = regime; return r }
		saveOne(t, rs, "fresh", "f1", "a", "", scored("fresh", 0.5))
		saveOne(t, rs, "stale", "f1", "a", "", scored("stale", 0.5), withRegime(scored("stale", 0.5), "E"))
		saveOne(t, rs, "failed", "f1", "a", string(metrics.ExcludedError))
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		keys := []string{"fresh", "stale", "failed", "new1", "new2"}
		if taken, err := rs.ClaimKeys(ctx, keys, "w", now, now.Add(time.Minute)); err != nil || len(taken) != len(keys) {
			t.Fatalf("claims: %v, %v", taken, err)
		}
		saver, err := rs.CellSaver(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer saver.Close()
		stored, err := saver.Save(ctx, "w", []CellOutcome{
			{Key: "new2", Fingerprint: "f", DoneAt: 2, Scores: []ScoreRecord{scored("new2", 0.25), withRegime(scored("new2", 0.25), "E")}},
			{Key: "stale", Fingerprint: "f2", DoneAt: 2, Scores: []ScoreRecord{scored("stale", 0.75)}},
			{Key: "fresh", Fingerprint: "f1", DoneAt: 2, Scores: []ScoreRecord{scored("fresh", 0.9)}},
			{Key: "failed", Fingerprint: "f1", DoneAt: 2, Scores: []ScoreRecord{scored("failed", 0.7)}},
			{Key: "new1", Fingerprint: "f", DoneAt: 2, Excluded: "empty_pool"},
			{Key: "new2", Fingerprint: "f", DoneAt: 3, Scores: []ScoreRecord{scored("new2", 0.125)}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]bool{"new2": true, "stale": true, "failed": true, "new1": true}; !maps.Equal(trueKeys(stored), want) {
			t.Errorf("stored = %v, want %v", trueKeys(stored), want)
		}
		cells, err := rs.Cells(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]StoredCell{"fresh": {"f1", ""}, "stale": {"f2", ""}, "failed": {"f1", ""}, "new1": {"f", "empty_pool"}, "new2": {"f", ""}}; !maps.Equal(cells, want) {
			t.Errorf("cells = %v, want %v", cells, want)
		}
		rows, err := rs.db.QueryContext(ctx, `SELECT key, regime, record FROM scores`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		got := map[string]float64{}
		for rows.Next() {
			var key, regime, record string
			if err := rows.Scan(&key, &regime, &record); err != nil {
				t.Fatal(err)
			}
			var r ScoreRecord
			if err := json.Unmarshal([]byte(record), &r); err != nil {
				t.Fatal(err)
			}
			got[key+"/"+regime] = *r.Eta
		}
		if want := map[string]float64{"fresh/U": 0.5, "stale/U": 0.75, "failed/U": 0.7, "new2/U": 0.25, "new2/E": 0.25}; !maps.Equal(got, want) {
			t.Errorf("scores (η by key/regime) = %v, want %v", got, want)
		}
		if holders, err := rs.Holders(ctx); err != nil || len(holders) != 0 {
			t.Errorf("claims after the save: %v, %v; want none", holders, err)
		}
	})
}

// trueKeys keeps the keys of m that are true.
func trueKeys(m map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k, v := range m {
		if v {
			out[k] = true
		}
	}
	return out
}

// TestClaims: one holder at a time; a lease that ended is taken over; the
// holder renews and releases, others' renewals and releases leave its
// lease alone; saving releases.
func TestClaims(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		claim := func(worker string, now time.Time) bool {
			t.Helper()
			return claimOne(t, rs, "k", worker, now)
		}
		if !claim("a", t0) || claim("b", t0.Add(time.Second)) {
			t.Fatal("a second worker took a held unit")
		}
		if !claim("a", t0.Add(2*time.Second)) {
			t.Error("the holder could not renew by claiming again")
		}
		if err := rs.RenewAll(ctx, "b", t0.Add(time.Hour)); err != nil { // b holds nothing: nothing happens
			t.Fatal(err)
		}
		if err := rs.RenewAll(ctx, "a", t0.Add(3*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if holders, err := rs.Holders(ctx); err != nil || !holders["k"].Equal(t0.Add(3*time.Minute)) {
			t.Errorf("after the renewals: %v, %v; want a's lease until %v", holders, err, t0.Add(3*time.Minute))
		}
		if claim("b", t0.Add(2*time.Minute)) {
			t.Error("the renewed lease was taken over")
		}
		// Past the lease: a dead worker's unit goes to the next one.
		if !claim("b", t0.Add(4*time.Minute)) {
			t.Error("an ended lease was not taken over")
		}
		if err := rs.ReleaseKeys(ctx, "a", []string{"k"}); err != nil { // no longer a's: nothing happens
			t.Fatal(err)
		}
		if claim("c", t0.Add(4*time.Minute)) {
			t.Error("a release by a former holder freed the unit")
		}
		if err := rs.ReleaseKeys(ctx, "b", []string{"k"}); err != nil {
			t.Fatal(err)
		}
		if !claim("c", t0.Add(4*time.Minute)) {
			t.Error("the holder's release did not free the unit")
		}
		saveOne(t, rs, "k", "f", "c", "", scored("k", 0.5))
		if !claim("d", t0.Add(4*time.Minute)) {
			t.Error("storing the cell did not release its claim")
		}
	})
}

// TestWorkersOpenAndSaveTogether: workers starting together on a fresh
// store create its schema once and record the same grid without errors.
func TestWorkersOpenAndSaveTogether(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		grid := map[string]string{}
		for i := range 200 {
			grid["cell-"+string(rune('a'+i%26))+strings.Repeat("x", i)] = "fp"
		}
		acc := []Accuracy{{Model: "m", Mode: "standard", Dataset: "d", Correct: 1, Gradeable: 2}}
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for range 4 {
			wg.Go(func() {
				rs, err := Open(ctx, location)
				if err != nil {
					errs <- err
					return
				}
				defer rs.Close()
				if err := rs.SaveManifest(ctx, []byte(`{}`), []byte(`{}`)); err != nil {
					errs <- err
				}
				if err := rs.SaveGrid(ctx, grid, acc, GridSaver{}); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		res, err := openTest(t, location).Results(ctx)
		if err != nil || res.Freshness.Pending != len(grid) || len(res.Accuracy) != 1 {
			t.Errorf("after concurrent saves: %+v, %v", res.Freshness, err)
		}
	})
}

// TestRunStoreRefusesNewerSchema: a store from a newer triage is refused.
func TestRunStoreRefusesNewerSchema(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		rs := openTest(t, location)
		stmt := `UPDATE run_schema SET version = 99`
		if rs.db.Dialect == "sqlite" {
			stmt = `PRAGMA user_version = 99`
		}
		if _, err := rs.db.ExecContext(context.Background(), stmt); err != nil {
			t.Fatal(err)
		}
		rs.Close()
		if _, err := Open(context.Background(), location); err == nil || !strings.Contains(err.Error(), "newer") {
			t.Errorf("opening a newer store: %v", err)
		}
	})
}

// TestBuilds: each build records each command it ran on the run once,
// with its first and last use; the builds come back as recorded.
func TestBuilds(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		if got, err := rs.Builds(ctx); len(got) != 0 || err != nil {
			t.Fatalf("a new store's builds: %v, %v", got, err)
		}
		old := version.Info{Module: "github.com/triage-eval/triage", Version: "v1.0.0", Revision: "0123456789abcdef0123", CommitTime: "2026-01-01T00:00:00Z", Go: "go1.26.8"}
		// old was recorded before builds carried the protocol; dirty carries it.
		dirty := version.Info{Module: "github.com/triage-eval/triage", Version: "(devel)", Revision: "fedcba9876543210fedc", Modified: true, Go: "go1.26.8", Protocol: "triage.v1", SpecRevision: "2026-11-26"}
		t0 := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
		for _, rec := range []struct {
			build   version.Info
			command string
			at      time.Time
		}{
			{old, "baseline", t0}, {old, "run", t0.Add(time.Hour)}, {old, "run", t0.Add(2 * time.Hour)}, {dirty, "run", t0.Add(3 * time.Hour)},
		} {
			if err := rs.RecordBuild(ctx, rec.build, rec.command, rec.at); err != nil {
				t.Fatal(err)
			}
		}
		got, err := rs.Builds(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []BuildUse{
			{Build: old, Command: "baseline", First: t0, Last: t0},
			{Build: old, Command: "run", First: t0.Add(time.Hour), Last: t0.Add(2 * time.Hour)},
			{Build: dirty, Command: "run", First: t0.Add(3 * time.Hour), Last: t0.Add(3 * time.Hour)},
		}
		if len(got) != len(want) {
			t.Fatalf("builds = %v, want %v", got, want)
		}
		for i := range want {
			if got[i].Build != want[i].Build || got[i].Command != want[i].Command || !got[i].First.Equal(want[i].First) || !got[i].Last.Equal(want[i].Last) {
				t.Errorf("builds[%d] = %v, want %v", i, got[i], want[i])
			}
		}
		if s := got[1].String(); s != "run by v1.0.0 (revision 0123456789ab, committed 2026-01-01T00:00:00Z, go1.26.8), 2026-02-03T05:05:06Z to 2026-02-03T06:05:06Z" {
			t.Errorf("String = %q", s)
		}
		if s := got[2].String(); s != "run by (devel) (triage.v1 spec 2026-11-26, revision fedcba987654, modified, go1.26.8), 2026-02-03T07:05:06Z to 2026-02-03T07:05:06Z" {
			t.Errorf("String = %q", s)
		}
	})
}

// TestSaveReplacesScores: a stale or failed cell's recomputation
// replaces every score row of the older attempt, whichever regimes each
// attempt scored, and releases the claim whether it stored or not.
func TestSaveReplacesScores(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		rec := func(regime string, value float64) ScoreRecord {
			return ScoreRecord{Model: "m", Mode: "standard", Dataset: "d", Regime: regime, Value: value}
		}
		rows := func() map[string]float64 {
			t.Helper()
			q, err := rs.db.QueryContext(ctx, `SELECT regime, record FROM scores WHERE key = ?`, "k")
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			out := map[string]float64{}
			for q.Next() {
				var regime, record string
				if err := q.Scan(&regime, &record); err != nil {
					t.Fatal(err)
				}
				var r ScoreRecord
				if err := json.Unmarshal([]byte(record), &r); err != nil {
					t.Fatal(err)
				}
				out[regime] = r.Value
			}
			return out
		}
		steps := []struct {
			fp, worker, excluded string
			scores               []ScoreRecord
			wantStored           bool
			want                 map[string]float64
		}{
			{"f1", "a", "", []ScoreRecord{rec("U", 1), rec("E", 2)}, true, map[string]float64{"U": 1, "E": 2}},
			{"f1", "b", "", []ScoreRecord{rec("U", 9)}, false, map[string]float64{"U": 1, "E": 2}},
			{"f2", "a", "", []ScoreRecord{rec("E", 3)}, true, map[string]float64{"E": 3}},
			{"f3", "a", string(metrics.ExcludedError), nil, true, map[string]float64{}},
			{"f3", "c", "", []ScoreRecord{rec("U", 4), rec("E", 5)}, true, map[string]float64{"U": 4, "E": 5}},
		}
		for i, st := range steps {
			if !claimOne(t, rs, "k", st.worker, time.Now()) {
				t.Fatalf("step %d: %s could not claim the cell", i, st.worker)
			}
			if stored := saveOne(t, rs, "k", st.fp, st.worker, st.excluded, st.scores...); stored != st.wantStored {
				t.Errorf("step %d: stored = %v, want %v", i, stored, st.wantStored)
			}
			if got := rows(); !maps.Equal(got, st.want) {
				t.Errorf("step %d: scores %v, want %v", i, got, st.want)
			}
			holders, err := rs.Holders(ctx)
			if err != nil || len(holders) != 0 {
				t.Errorf("step %d: claims left %v, %v", i, holders, err)
			}
		}
	})
}

// TestSaveGridInBatches: grids larger than one batch are recorded whole,
// and a changed grid replaces the old one (removed cells gone, changed
// fingerprints updated), on both backends.
func TestSaveGridInBatches(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		grid := func(n, from int, fp string) map[string]string {
			g := map[string]string{}
			for i := from; i < from+n; i++ {
				g[fmt.Sprintf("cell-%05d", i)] = fp
			}
			return g
		}
		check := func(want map[string]string) {
			t.Helper()
			tx, err := rs.db.BeginTx(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			got, err := pairsOf(ctx, tx, `SELECT key, fingerprint FROM grid_cells`)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, want) {
				t.Errorf("grid_cells holds %d rows, want %d (equal: %v)", len(got), len(want), maps.Equal(got, want))
			}
		}
		first := grid(2*batchRows+37, 0, "a")
		if err := rs.SaveGrid(ctx, first, nil, GridSaver{}); err != nil {
			t.Fatal(err)
		}
		check(first)
		second := grid(batchRows+11, batchRows, "b") // drops the first batchRows cells, changes the rest
		maps.Copy(second, grid(3, 5000, "c"))
		if err := rs.SaveGrid(ctx, second, nil, GridSaver{}); err != nil {
			t.Fatal(err)
		}
		check(second)
		if err := rs.SaveGrid(ctx, second, nil, GridSaver{}); err != nil { // a second worker: nothing changes
			t.Fatal(err)
		}
		check(second)
	})
}

// TestSaveGridAccuracy: saving a grid makes the accuracy table hold its
// accuracy rows, whichever were stored before: changed rows replaced, rows
// of solvers or datasets no longer in the grid removed, new ones added.
func TestSaveGridAccuracy(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		grid := map[string]string{"cell": "fp"}
		acc := func(model, dataset string, correct int) Accuracy {
			return Accuracy{Model: model, Mode: "standard", Dataset: dataset, Correct: correct, Gradeable: 10, Unsolvable: 1, LuckyGuesses: 1, PublicTestsOnly: 2}
		}
		rowVersions := func() string { // PostgreSQL's xmin: which transaction last wrote each row
			if rs.db.Dialect != "postgres" {
				return ""
			}
			tx, err := rs.db.BeginTx(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			v, err := pairsOf(ctx, tx, `SELECT model || mode || dataset, xmin::text FROM accuracy`)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprint(v)
		}
		for i, step := range []struct{ save, want []Accuracy }{
			{[]Accuracy{acc("m", "d1", 3), acc("m", "d2", 4), acc("n", "d1", 5)}, nil},
			{[]Accuracy{acc("m", "d1", 3), acc("m", "d2", 6), acc("o", "d3", 7)}, nil},                           // one unchanged, one changed, one gone, one new
			{[]Accuracy{acc("m", "d1", 3), acc("m", "d2", 6), acc("o", "d3", 7)}, nil},                           // a second worker: nothing is written
			{[]Accuracy{acc("m", "d1", 1), acc("m", "d1", 2), acc("m", "d1", 2)}, []Accuracy{acc("m", "d1", 2)}}, // a key given again: the last wins
			{[]Accuracy{acc("x|standard", "d", 1), acc("x", "standard|d", 2)}, nil},
			{[]Accuracy{acc("x", "standard|d", 2)}, nil}, // names that join alike are told apart
			{nil, nil},
		} {
			want := step.want
			if want == nil {
				want = slices.Clone(step.save)
				slices.SortFunc(want, func(a, b Accuracy) int {
					return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Mode, b.Mode), cmp.Compare(a.Dataset, b.Dataset))
				})
			}
			before := rowVersions()
			if err := rs.SaveGrid(ctx, grid, step.save, GridSaver{}); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			if i == 2 && rowVersions() != before {
				t.Errorf("step %d: saving the same accuracy again wrote rows", i)
			}
			res, err := rs.Results(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				want = nil
			}
			if !slices.Equal(res.Accuracy, want) {
				t.Errorf("step %d: after saving %v the store holds %v, want %v", i, step.save, res.Accuracy, want)
			}
		}
	})
}

// TestClaimCellsSkipsFreshCells: a cell stored fresh is not claimed (and
// nothing is written); a stale or failed one is, to be replaced; a cell
// another worker holds is not.
func TestClaimCellsSkipsFreshCells(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		saveOne(t, rs, "k", "f1", "a", "", scored("k", 0.5))
		saveOne(t, rs, "s", "f1", "a", "", scored("s", 0.5))
		saveOne(t, rs, "e", "f1", "a", string(metrics.ExcludedError))
		now := time.Now()
		if !claimOne(t, rs, "h", "a", now) {
			t.Fatal("a could not claim h")
		}
		if !claimOne(t, rs, "x", "a", now.Add(-2*time.Minute)) { // its lease ended a minute ago
			t.Fatal("a could not claim x")
		}
		taken, err := rs.ClaimCells(ctx, []string{"k", "s", "e", "n", "h", "x"}, []string{"f1", "f2", "f1", "f1", "f1", "f1"}, "b", now, now.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		// k: fresh; s: stale; e: failed; n: never stored; h: held by a;
		// x: a's lease expired.
		if want := map[string]bool{"s": true, "e": true, "n": true, "x": true}; !maps.Equal(taken, want) {
			t.Errorf("taken %v, want %v", taken, want)
		}
		holders, err := rs.Holders(ctx)
		if err != nil || len(holders) != 5 {
			t.Errorf("claims %v, %v; want the four taken and h", holders, err)
		}
	})
}

// TestRunStoreRidesOutALockedSQLite: a SQLite run store locked by another
// writer past its busy timeout (the store error SQLite can have) is tried
// again until the lock is gone; an error about the statement itself (here
// a table gone) is not tried again, nor warned about.
func TestRunStoreRidesOutALockedSQLite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "run.db")
	rs := openTest(t, path)
	holder, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM claims`); err != nil { // takes the write lock
		t.Fatal(err)
	}
	var (
		mu   sync.Mutex
		said []string
	)
	rs.RideOutages(Outage{Wait: 10 * time.Minute, Warn: func(msg string) {
		mu.Lock()
		said = append(said, msg)
		mu.Unlock()
		if strings.Contains(msg, "not answering") {
			go tx.Rollback()
		}
	}})
	if err := rs.SaveManifest(ctx, []byte(`{}`), []byte(`{}`)); err != nil {
		t.Fatalf("save while another writer held the lock: %v", err)
	}
	mu.Lock()
	if len(said) != 2 || !strings.Contains(said[0], "database is locked") || !strings.Contains(said[1], "answers again") {
		t.Errorf("warnings %q, want the lock, then the store answering again", said)
	}
	said = nil
	mu.Unlock()

	if _, err := holder.ExecContext(ctx, `DROP TABLE manifest`); err != nil {
		t.Fatal(err)
	}
	err = rs.SaveManifest(ctx, []byte(`{}`), []byte(`{}`))
	var gone *UnreachableError
	if err == nil || errors.As(err, &gone) || !strings.Contains(err.Error(), "no such table") {
		t.Errorf("save into a table gone: %v, want the error at once", err)
	}
	mu.Lock()
	if len(said) != 0 {
		t.Errorf("warned %q about an error that is not an outage", said)
	}
	mu.Unlock()
}

// TestStoppingRunDoesNotWaitOutAnOutage: a cell's outcome is saved even
// when the run is stopping, but a run told to stop does not wait out a
// store outage for it: the save's retries end with the run's context.
func TestStoppingRunDoesNotWaitOutAnOutage(t *testing.T) {
	location, proxy := pgtest.Proxied(t)
	rs := openTest(t, location)
	saver, err := rs.CellSaver(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer saver.Close()
	ctx, stop := context.WithCancel(context.Background())
	rs.RideOutages(Outage{Wait: 10 * time.Minute, Warn: func(msg string) {
		if strings.Contains(msg, "not answering") {
			stop() // the user interrupts the run
		}
	}})
	proxy.Cut()
	done := make(chan error, 1)
	go func() {
		_, err := saver.Save(CompleteEvenIfStopping(ctx), "w", []CellOutcome{{Key: "k", Fingerprint: "fp", DoneAt: 1, Scores: []ScoreRecord{scored("k", 0.5)}}})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("save during an outage, the run stopping: %v, want it to end as cancelled", err)
		}
	case <-time.After(2 * time.Minute): // a hang bound only
		t.Fatal("the save waited out the outage although the run stopped")
	}
}

// TestSaveGridRefusesAnotherLiveConfig: a worker whose grid differs from
// the one stored is refused while another worker holds a live claim (two
// configs on one run store would overwrite each other's grid and mix their
// cells), and nothing is written; the same grid joins, a lapsed claim or an
// unnamed saver replaces it.
func TestSaveGridRefusesAnotherLiveConfig(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
		mine := map[string]string{"k1": "a", "k2": "a"}
		other := map[string]string{"k1": "b", "k3": "b"}
		if err := rs.SaveGrid(ctx, mine, nil, GridSaver{Worker: "w1", Now: now}); err != nil {
			t.Fatal(err)
		}
		// A live claim of another kind of unit (a baseline's problem) is no
		// other config.
		if _, err := rs.ClaimCells(ctx, []string{"problem-7"}, []string{"x"}, "w9", now, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		for _, g := range []map[string]string{other, mine} {
			if err := rs.SaveGrid(ctx, g, nil, GridSaver{Worker: "w1", Now: now}); err != nil {
				t.Fatalf("with only another kind of unit claimed: %v", err)
			}
		}
		if _, err := rs.ClaimCells(ctx, []string{"k1"}, []string{"a"}, "w1", now, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		err := rs.SaveGrid(ctx, other, nil, GridSaver{Worker: "w2", Now: now.Add(time.Second)})
		var inUse *GridInUseError
		if !errors.As(err, &inUse) || inUse.Worker != "w1" || inUse.Differing != 3 {
			t.Fatalf("another config while w1 holds a cell: %v, want a GridInUseError naming w1 and 3 differing cells", err)
		}
		for _, tc := range []struct {
			name string
			grid map[string]string
			by   GridSaver
		}{
			{"the same config joins", mine, GridSaver{Worker: "w2", Now: now.Add(time.Second)}},
			{"the holder itself", other, GridSaver{Worker: "w1", Now: now.Add(time.Second)}},
			{"once the claim has lapsed", mine, GridSaver{Worker: "w3", Now: now.Add(2 * time.Minute)}},
			{"an unnamed saver", other, GridSaver{}},
		} {
			if err := rs.SaveGrid(ctx, tc.grid, nil, tc.by); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
	})
}
