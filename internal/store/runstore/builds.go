package runstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/triage-eval/triage/internal/platform/version"
)

// BuildUse is one build's use of the run for one command.
type BuildUse struct {
	// Build is the build.
	Build version.Info
	// Command is the triage command, e.g. "run" or "baseline".
	Command string
	// First and Last are when the build started the command on the run,
	// first and last.
	First, Last time.Time
}

// String is "run by v1.2.0 (revision …), 2026-01-01T00:00:00Z to …".
func (u BuildUse) String() string {
	return fmt.Sprintf("%s by %s, %s to %s", u.Command, u.Build, u.First.UTC().Format(time.RFC3339), u.Last.UTC().Format(time.RFC3339))
}

// RecordBuild implements Store.
func (s *sqlStore) RecordBuild(ctx context.Context, build version.Info, command string, now time.Time) error {
	info, err := json.Marshal(build)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO builds (build, command, info, first_used, last_used) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (build, command) DO UPDATE SET last_used = excluded.last_used`,
		build.String(), command, string(info), now.UnixMicro(), now.UnixMicro())
	return err
}

// Builds implements Store.
func (s *sqlStore) Builds(ctx context.Context) ([]BuildUse, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT command, info, first_used, last_used FROM builds ORDER BY first_used, build, command`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BuildUse
	for rows.Next() {
		var (
			u           BuildUse
			info        string
			first, last int64
		)
		if err := rows.Scan(&u.Command, &info, &first, &last); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(info), &u.Build); err != nil {
			return nil, fmt.Errorf("builds: %w", err)
		}
		u.First, u.Last = time.UnixMicro(first), time.UnixMicro(last)
		out = append(out, u)
	}
	return out, rows.Err()
}
