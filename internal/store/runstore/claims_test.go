package runstore

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

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
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, location)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close(ctx) }()
	if _, err := conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
		t.Fatal(err)
	}
	lookup := regexp.MustCompile(`Index Scan using \S+ on cells`)
	subplan := regexp.MustCompile(`(Sub|Init)Plan`) // one key: an InitPlan
	for _, n := range []int{1, 12, 64} {
		args := []string{"'w'", "1"}
		for i := range n {
			args = append(args, fmt.Sprintf("'k%d'", i), fmt.Sprintf("'f%d'", i))
		}
		args = append(args, "0")
		name := fmt.Sprintf("claim%d", n)
		if _, err := conn.Exec(ctx, "PREPARE "+name+" AS "+sqldb.Postgres.Rebind(claimCellsQuery(n))); err != nil {
			t.Fatalf("prepare %d: %v", n, err)
		}
		rows, err := conn.Query(ctx, "EXPLAIN (COSTS OFF) EXECUTE "+name+"("+strings.Join(args, ", ")+")")
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		if strings.Contains(plan, "Anti Join") || !subplan.MatchString(plan) || !lookup.MatchString(plan) {
			t.Errorf("the plan of a claim of %d cells does not look each one up by its key:\n%s", n, plan)
		}
	}
}
