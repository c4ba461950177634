package runstore

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// TestClaimLooksCellsUp checks the plan PostgreSQL caches for a claim of
// twelve cells (the generic plan a prepared statement settles on, made here
// while cells is empty, as at a run's start): every key is looked up by the
// primary key, never by a sequential scan of the stored cells, which every
// claim of a shared run would repeat.
func TestClaimLooksCellsUp(t *testing.T) {
	location := pgtest.Location(t)
	openTest(t, location) // creates the tables
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, location)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close(ctx) }()
	const n = 12
	args := []string{"'w'", "1"}
	for i := range n {
		args = append(args, fmt.Sprintf("'k%d'", i), fmt.Sprintf("'f%d'", i))
	}
	args = append(args, "0")
	for _, stmt := range []string{
		"SET plan_cache_mode = force_generic_plan",
		"PREPARE claim AS " + sqldb.Postgres.Rebind(claimCellsQuery(n)),
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	rows, err := conn.Query(ctx, "EXPLAIN (COSTS OFF) EXECUTE claim("+strings.Join(args, ", ")+")")
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	plan := strings.Join(lines, "\n")
	if strings.Contains(plan, "Seq Scan on cells") || !strings.Contains(plan, "Index Scan using cells_pkey on cells") {
		t.Errorf("a claim's plan does not look each cell up by its key:\n%s", plan)
	}
}
