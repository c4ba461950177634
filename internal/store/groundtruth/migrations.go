package groundtruth

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// migrationFiles holds the versioned schema of every backend, one directory
// per dialect, each file named NNNN_description.sql.
//
//go:embed migrations
var migrationFiles embed.FS

// migration is one versioned schema step.
type migration struct {
	version int64
	name    string
	sql     string
}

// loadMigrations returns the migrations of dialect ("sqlite" or "postgres")
// in version order. Versions must start at 1 and have no gaps, so the highest
// applied version says exactly which steps a database has.
func loadMigrations(dialect string) ([]migration, error) {
	dir := path.Join("migrations", dialect)
	entries, err := fs.ReadDir(migrationFiles, dir)
	if err != nil {
		return nil, fmt.Errorf("store: migrations for %s: %w", dialect, err)
	}
	var ms []migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		prefix, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.ParseInt(prefix, 10, 64)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("store: migration %s/%s: name must start with a positive version and '_'", dir, e.Name())
		}
		body, err := fs.ReadFile(migrationFiles, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("store: migration %s/%s: %w", dir, e.Name(), err)
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != int64(i+1) {
			return nil, fmt.Errorf("store: migrations for %s: expected version %d, found %s", dialect, i+1, m.name)
		}
	}
	return ms, nil
}

// pendingMigrations returns the steps of ms after version current, or an
// error if the database is newer than this binary.
func pendingMigrations(ms []migration, current int64, location string) ([]migration, error) {
	latest := int64(len(ms))
	if current > latest {
		return nil, fmt.Errorf("store: %s has schema version %d but this binary knows only up to %d; upgrade the binary", location, current, latest)
	}
	return ms[current:], nil
}

// LatestSchemaVersion returns the newest schema version this binary applies
// for dialect ("sqlite" or "postgres").
func LatestSchemaVersion(dialect string) (int64, error) {
	ms, err := loadMigrations(dialect)
	if err != nil {
		return 0, err
	}
	return int64(len(ms)), nil
}
