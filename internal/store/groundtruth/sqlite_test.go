package groundtruth_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/groundtruth/storetest"
)

func TestSQLiteConformance(t *testing.T) {
	storetest.Run(t, storetest.Harness{Dialect: "sqlite", Open: openSQLiteNamed})
}

// openSQLiteNamed opens the file database name in t's temporary directory.
func openSQLiteNamed(t *testing.T, name string) groundtruth.Store {
	t.Helper()
	s, err := groundtruth.Open(context.Background(), "sqlite:"+filepath.Join(sqliteDir(t), name+".db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// sqliteDirs keeps one temporary directory per test, so that every name of
// a test reopens in the same place.
var (
	sqliteDirsMu sync.Mutex
	sqliteDirs   = map[*testing.T]string{}
)

func sqliteDir(t *testing.T) string {
	sqliteDirsMu.Lock()
	defer sqliteDirsMu.Unlock()
	if d, ok := sqliteDirs[t]; ok {
		return d
	}
	d := t.TempDir()
	sqliteDirs[t] = d
	t.Cleanup(func() {
		sqliteDirsMu.Lock()
		defer sqliteDirsMu.Unlock()
		delete(sqliteDirs, t)
	})
	return d
}

func TestSQLiteMemory(t *testing.T) {
	ctx := context.Background()
	s, err := groundtruth.Open(ctx, "sqlite::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g := storetest.Gen{Models: 1, Datasets: 1, Problems: 300}
	if _, err := s.Import(ctx, g.Records()); err != nil {
		t.Fatal(err)
	}
	// A cancelled import must not lose the database with its connection.
	cctx, cancel := context.WithCancel(ctx)
	g2 := g
	g2.Variant = 1
	i := 0
	_, err = s.Import(cctx, func(yield func(groundtruth.Record, error) bool) {
		for r := range g2.Records() {
			if i++; i == 280 {
				cancel()
			}
			if !yield(r, nil) {
				return
			}
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled import: %v", err)
	}
	p, err := s.List(ctx, groundtruth.ListQuery{PageSize: groundtruth.MaxPageSize})
	if err != nil || len(p.Records) != g.Len() {
		t.Fatalf("List = %d records, %v; want %d", len(p.Records), err, g.Len())
	}
	if d := p.Records[0]; !d.MeasuredAt.Equal(storetest.Stored(g.Record(0, 0, 0, 0, 0)).MeasuredAt) {
		t.Fatalf("first record %+v changed by a cancelled import", d)
	}
}

func TestSQLiteConcurrentOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := groundtruth.Open(context.Background(), path)
			if err == nil {
				_, err = s.Import(context.Background(), storetest.Gen{Models: 1, Datasets: 1, Problems: 50, Variant: i}.Records())
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := groundtruth.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if p, err := s.List(context.Background(), groundtruth.ListQuery{}); err != nil || len(p.Records) != 100 {
		t.Fatalf("List = %d records, %v; want 100", len(p.Records), err)
	}
}

func TestSQLiteRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "future.db")
	s, err := groundtruth.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO schema_migrations (version, applied_at) VALUES (999, 0)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = groundtruth.Open(ctx, path)
	if err == nil || !strings.Contains(err.Error(), "999") || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open of a newer database: %v; want an error naming the version and the location", err)
	}
}

// TestSQLiteUpgradesVersion1 opens a database at schema version 1 (before
// lucky_guess and cost_rule): its rows survive the upgrade and read back as
// no lucky guess, with a cost of unknown rule.
func TestSQLiteUpgradesVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := os.ReadFile(filepath.Join("migrations", "sqlite", "0001_ground_truth.sql"))
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`,
		string(v1),
		`INSERT INTO schema_migrations (version, applied_at) VALUES (1, 0)`,
		`INSERT INTO ground_truth VALUES ('m', 'standard', 'ds', 'p1', 10, 1, 1, 'stop', 5, '', '', 1700000000000000)`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	db.Close()
	s, err := groundtruth.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Get(ctx, groundtruth.Solver{Model: "m", Mode: "standard"}, "ds", []string{"p1"})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := got["p1"]; !ok || !r.Correct || r.Cost != 10 || r.LuckyGuess || r.CostRule != costrule.Unknown {
		t.Fatalf("after the upgrade: %+v, %v; want the v1 row, correct, no lucky guess, cost rule unknown", r, ok)
	}
}

// TestSQLiteUpgradesVersion2 opens a database at schema version 2 (before
// cost_rule): its rows read back with their cost of unknown rule, and a
// re-measured record replaces one with its rule.
func TestSQLiteUpgradesVersion2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`}
	for _, f := range []string{"0001_ground_truth.sql", "0002_lucky_guess.sql"} {
		b, err := os.ReadFile(filepath.Join("migrations", "sqlite", f))
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, string(b))
	}
	stmts = append(stmts,
		`INSERT INTO schema_migrations (version, applied_at) VALUES (1, 0), (2, 0)`,
		`INSERT INTO ground_truth VALUES ('m', 'extended', 'ds', 'p1', 86, 1, 1, 'stop', 5, '', '', 1700000000000000, 0)`,
		`INSERT INTO ground_truth VALUES ('m', 'extended', 'ds', 'p2', 0, 0, 0, '', 0, '', 'model call failed', 1700000000000000, 0)`)
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	db.Close()
	upgradedKeepsCosts(t, openAt(t, path))
}

// upgradedKeepsCosts checks a store upgraded from schema version 2 with the
// rows p1 (cost 86, gradeable) and p2 (not gradeable) of solver
// m/extended in ds.
func upgradedKeepsCosts(t *testing.T, s groundtruth.Store) {
	t.Helper()
	ctx := context.Background()
	solver := groundtruth.Solver{Model: "m", Mode: "extended"}
	got, err := s.Get(ctx, solver, "ds", []string{"p1", "p2"})
	if err != nil {
		t.Fatal(err)
	}
	if r := got["p1"]; r.Cost != 86 || !r.Gradeable || r.CostRule != costrule.Unknown {
		t.Errorf("p1 after the upgrade: %+v; want cost 86 of rule unknown", r)
	}
	if r := got["p2"]; r.Gradeable || r.CostRule != costrule.Unknown {
		t.Errorf("p2 after the upgrade: %+v; want not gradeable, rule unknown", r)
	}
	again := got["p1"]
	again.Cost, again.CostRule = 7953, costrule.CompletionPlusReasoning
	st, err := s.Import(ctx, func(yield func(groundtruth.Record, error) bool) { yield(again, nil) })
	if err != nil || st.Updated != 1 {
		t.Fatalf("re-measuring p1: %+v, %v", st, err)
	}
	got, err = s.Get(ctx, solver, "ds", []string{"p1"})
	if err != nil || got["p1"].Cost != 7953 || got["p1"].CostRule != costrule.CompletionPlusReasoning {
		t.Errorf("p1 re-measured: %+v, %v", got["p1"], err)
	}
}

func TestSQLiteOpenErrors(t *testing.T) {
	ctx := context.Background()
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "x.db")
	tests := []struct {
		location, want string
	}{
		{missing, missing},
		{"sqlite:", "empty"},
		{"", "empty location"},
		{"mysql://user:secret@host/db", "unsupported scheme"},
	}
	for _, tc := range tests {
		s, err := groundtruth.Open(ctx, tc.location)
		if err == nil {
			s.Close()
			t.Fatalf("Open(%q) succeeded", tc.location)
		}
		if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q) error %q; want it to contain %q (and no password)", tc.location, err, tc.want)
		}
	}
}

func TestSQLitePathWithURIChars(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "a?b#c%d")
	path := filepath.Join(dir, "x.db")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := groundtruth.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not created at %s", path)
	}
}

// TestSQLiteOddKeys checks that unusual but valid keys page byte-exactly,
// in bytewise order, and that strings PostgreSQL could not hold (NUL bytes,
// invalid UTF-8) are rejected here too, so both backends accept the same
// records.
func TestSQLiteOddKeys(t *testing.T) {
	ctx := context.Background()
	s := openSQLiteNamed(t, "odd")
	var in []groundtruth.Record
	for _, id := range []string{"a", "a b", "ab", "é", "Z", "日本", "~"} {
		r := storetest.Gen{Models: 1, Datasets: 1, Problems: 1}.Record(0, 0, 0, 0, 0)
		r.ProblemID = id
		r.Dataset = "ds é"
		in = append(in, r)
	}
	st, err := s.Import(ctx, storetest.Slice(in...))
	if err != nil || st.Inserted != int64(len(in)) {
		t.Fatalf("Import = %+v, %v", st, err)
	}
	q := groundtruth.ListQuery{PageSize: 1, Dataset: "ds é"}
	var got []string
	for {
		p, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Records {
			got = append(got, r.ProblemID)
		}
		if p.NextPageToken == "" {
			break
		}
		q.PageToken = p.NextPageToken
	}
	want := []string{"Z", "a", "a b", "ab", "~", "é", "日本"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("listed %q, want %q (bytewise order, no gaps)", got, want)
	}
	for _, bad := range []string{"a\x00", "a\xff"} {
		r := in[0]
		r.ProblemID = bad
		if _, err := s.Import(ctx, storetest.Slice(r)); err == nil {
			t.Errorf("problem id %q accepted", bad)
		}
	}
}
