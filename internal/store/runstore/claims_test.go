package runstore

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// TestClaimLooksCellsUp checks the plan PostgreSQL caches for claims of 1,
// 12 and 64 cells (the generic plan a prepared statement settles on, made
// here while cells is empty and never analyzed, as at a run's start): each
// key is looked up by an index scan of cells in a subplan (an init plan
// for one key), never by an anti-join, which hashes a sequential scan of
// every stored cell and which every claim of a shared run would repeat.
func TestClaimLooksCellsUp(t *testing.T) {
	location := pgtest.Location(t)
	openTest(t, location) // creates the tables
	conn := connect(t, location)
	lookup := regexp.MustCompile(`Index Scan using \S+ on cells`)
	subplan := regexp.MustCompile(`(Sub|Init)Plan`) // one key: an InitPlan
	for _, n := range []int{1, 12, 64} {
		args := []string{"'w'", "1"}
		for i := range n {
			args = append(args, fmt.Sprintf("'k%d'", i), fmt.Sprintf("'f%d'", i))
		}
		args = append(args, "0")
		plan := genericPlan(t, conn, fmt.Sprintf("claim%d", n), claimCellsQuery(n), strings.Join(args, ", "))
		if strings.Contains(plan, "Anti Join") || !subplan.MatchString(plan) || !lookup.MatchString(plan) {
			t.Errorf("the plan of a claim of %d cells does not look each one up by its key:\n%s", n, plan)
		}
	}
}

// TestClaimCellsAfterConcurrentSave claims a cell on PostgreSQL while the
// worker that held it is storing it: the claim starts before the save
// commits (so its look at cells finds none) and writes its claim after it
// (the save's release of the old claim let it through). The claim must not
// be taken, or a second worker computes a cell already stored — a model
// call made twice. SQLite runs one writer at a time, so only PostgreSQL
// can interleave them so.
func TestClaimCellsAfterConcurrentSave(t *testing.T) {
	location := pgtest.Location(t)
	s := openTest(t, location)
	ctx := context.Background()
	now := time.UnixMicro(1_000_000)
	if got, err := s.ClaimCells(ctx, []string{"k"}, []string{"fp"}, "a", now, now.Add(time.Minute)); err != nil || !got["k"] {
		t.Fatalf("worker a's claim = %v, %v; want k taken", got, err)
	}
	// Worker a's save, as saveCellsOneTrip writes it, held open.
	save := connect(t, location)
	tx, err := save.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `INSERT INTO cells (key, plan, excluded, detail, done_at, fingerprint) VALUES ('k', '{}', '', '', 1, 'fp')`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM claims WHERE key = 'k' AND worker = 'a'`); err != nil {
		t.Fatal(err)
	}
	done := claimInBackground(s, []string{"k"}, []string{"fp"}, "b", now)
	waitForBlockedBy(t, location, save.PgConn().PID())
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	c := awaitClaim(t, done)
	if c.err != nil || c.taken["k"] {
		t.Errorf("worker b's claim of a cell stored while it claimed = %v, %v; want none taken", c.taken, c.err)
	}
	holders, err := s.Holders(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(holders) != 0 {
		t.Errorf("claims left after the save and the refused claim: %v", holders)
	}
}

// TestClaimCellsRidesOutADeadlock: a claim PostgreSQL aborts to break a
// deadlock with another worker's statement (which locks some of the same
// claims in another order, as a save or a release does) is done again, not
// returned as an error that would end the run.
func TestClaimCellsRidesOutADeadlock(t *testing.T) {
	location := pgtest.Location(t)
	s := openTest(t, location)
	ctx := context.Background()
	now := time.UnixMicro(1_000_000)
	keys, fps := []string{"k1", "k2"}, []string{"fp", "fp"}
	if got, err := s.ClaimCells(ctx, keys, fps, "other", now, now.Add(time.Minute)); err != nil || len(got) != 2 {
		t.Fatalf("the other worker's claim = %v, %v; want both taken", got, err)
	}
	other := connect(t, location)
	// The claim, not this session, is to find the deadlock and be aborted
	// (the first to wait deadlock_timeout checks for one).
	if _, err := other.Exec(ctx, "SET deadlock_timeout = '1min'"); err != nil {
		t.Fatal(err)
	}
	tx, err := other.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `SELECT 1 FROM claims WHERE key = 'k2' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	done := claimInBackground(s, keys, fps, "b", now)
	waitForBlockedBy(t, location, other.PgConn().PID()) // the claim holds k1 and waits for k2
	otherDone := make(chan error, 1)
	go func() {
		_, err := tx.Exec(ctx, `SELECT 1 FROM claims WHERE key = 'k1' FOR UPDATE`)
		if err == nil {
			err = tx.Commit(ctx)
		}
		otherDone <- err
	}()
	c := awaitClaim(t, done)
	if err := <-otherDone; err != nil {
		t.Fatalf("the other side of the deadlock: %v", err)
	}
	if c.err != nil || len(c.taken) != 0 {
		t.Errorf("claim = %v, %v; want none taken (the other worker holds both) and no error", c.taken, c.err)
	}
}

// waitForBlockedBy waits until a statement of the server of location waits
// for a lock held by backend pid (a minute at most, to catch a hang): only
// this test's own statements, though other tests share the server.
func waitForBlockedBy(t *testing.T, location string, pid uint32) {
	t.Helper()
	ctx := context.Background()
	conn := connect(t, location)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))`, int64(pid)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
	}
	t.Fatalf("no statement waited for backend %d's locks within a minute", pid)
}

// TestSaveLooksRowsUp checks the plan PostgreSQL caches for a grouped save
// of cells (saveCellsQuery, the generic plan, made while the tables are
// empty and never analyzed, as at a run's start): the old scores and the
// claims of the saved cells are found through their primary keys, never
// by a sequential scan, which every save of a shared run would repeat over
// a table that grows with the run (a save of 16 cells took longer than 16
// saves of one before it looked the scores up by key).
func TestSaveLooksRowsUp(t *testing.T) {
	location := pgtest.Location(t)
	openTest(t, location) // creates the tables
	plan := genericPlan(t, connect(t, location), "save", saveCellsQuery, `'{a,b}', '{p,p}', '{"",""}', '{"",""}', '{1,1}', '{f,f}', '{a}', '{U}', '{r}', '{a,b}', 'w', '{a,b}'`)
	for _, index := range []string{"scores_pkey", "claims_pkey"} {
		if !regexp.MustCompile(`Index (Only )?Scan (using|on) ` + index).MatchString(plan) {
			t.Errorf("the plan of a grouped save does not use %s:\n%s", index, plan)
		}
	}
	if strings.Contains(plan, "Seq Scan") {
		t.Errorf("the plan of a grouped save scans a table:\n%s", plan)
	}
}

// connect opens a connection of its own to the PostgreSQL store at
// location, closed when t ends.
func connect(t *testing.T, location string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// genericPlan returns the plan PostgreSQL caches for query (with ?
// placeholders) once a prepared statement settles on a generic one,
// prepared as name on conn and explained with args (SQL literals).
func genericPlan(t *testing.T, conn *pgx.Conn, name, query, args string) string {
	t.Helper()
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "PREPARE "+name+" AS "+sqldb.Postgres.Rebind(query)); err != nil {
		t.Fatalf("prepare %s: %v", name, err)
	}
	rows, err := conn.Query(ctx, "EXPLAIN (COSTS OFF) EXECUTE "+name+"("+args+")")
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// claimResult is what a ClaimCells made in the background returned.
type claimResult struct {
	taken map[string]bool
	err   error
}

// claimInBackground claims keys with fingerprints fps as worker at now,
// for a minute, in a goroutine of its own.
func claimInBackground(s *sqlStore, keys, fps []string, worker string, now time.Time) <-chan claimResult {
	done := make(chan claimResult, 1)
	go func() {
		taken, err := s.ClaimCells(context.Background(), keys, fps, worker, now, now.Add(time.Minute))
		done <- claimResult{taken, err}
	}()
	return done
}

// awaitClaim waits for a claim made in the background (a minute at most,
// to catch a hang).
func awaitClaim(t *testing.T, done <-chan claimResult) claimResult {
	t.Helper()
	select {
	case c := <-done:
		return c
	case <-time.After(time.Minute):
		t.Fatal("the claim did not return within a minute")
		return claimResult{}
	}
}
