package groundtruth

import (
	"strings"
	"testing"
)

func TestMigrationsLoad(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		ms, err := loadMigrations(dialect)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) == 0 || ms[0].version != 1 || !strings.Contains(ms[0].sql, "CREATE TABLE ground_truth") {
			t.Fatalf("%s migrations = %+v", dialect, ms)
		}
	}
	if _, err := loadMigrations("oracle"); err == nil {
		t.Fatal("loadMigrations(oracle) succeeded")
	}
}

func TestPendingMigrations(t *testing.T) {
	ms := []migration{{version: 1}, {version: 2}, {version: 3}}
	for current, want := range []int{3, 2, 1, 0} {
		got, err := pendingMigrations(ms, int64(current), "db")
		if err != nil || len(got) != want {
			t.Fatalf("pending after %d = %d, %v; want %d", current, len(got), err, want)
		}
	}
	_, err := pendingMigrations(ms, 4, "sqlite:x.db")
	if err == nil || !strings.Contains(err.Error(), "sqlite:x.db") || !strings.Contains(err.Error(), "version 4") {
		t.Fatalf("newer database: %v", err)
	}
}
