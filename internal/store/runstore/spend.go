package runstore

import (
	"context"
	"time"
)

// Reservation holds one model call's pessimistic cost against a spend
// cap until it is settled or its lease ends.
type Reservation struct {
	// ID identifies the reservation (unique per call attempt).
	ID string
	// Phase, Endpoint and CallKey say which call: the phase
	// ("phase0_baseline", …), the endpoint's name, the unit's key.
	Phase, Endpoint, CallKey string
	// Dollars is the call's pessimistic cost.
	Dollars float64
	// Until is when the reservation lapses unless settled (a worker that
	// died mid-call holds no budget for ever).
	Until time.Time
}

// Spent is what the run has spent, and holds reserved, as of a moment.
type Spent struct {
	// Dollars settled from the providers' usage.
	Dollars float64
	// Reserved is the pessimistic cost of the calls under way.
	Reserved float64
}

// SpendRow is the settled spend of one (phase, endpoint).
type SpendRow struct {
	Phase, Endpoint           string
	Calls                     int64
	InputTokens, OutputTokens int64
	Dollars                   float64
}

// Settlement is what a call turned out to cost.
type Settlement struct {
	// Phase, Endpoint and CallKey say which call (as its Reservation
	// does; they are stored when the call had none).
	Phase, Endpoint, CallKey string
	// InputTokens and OutputTokens are the usage the provider reported
	// (output with reasoning, SPEC §1).
	InputTokens, OutputTokens int64
	// Dollars is their price.
	Dollars float64
}

// Reserve implements Store.
func (s *sqlStore) Reserve(ctx context.Context, r Reservation, capDollars float64, now time.Time) (bool, Spent, error) {
	type outcome struct {
		ok bool
		sp Spent
	}
	o, err := retry(ctx, s, "reserving spend", func() (outcome, error) {
		tx, err := s.db.BeginTx(ctx)
		if err != nil {
			return outcome{}, err
		}
		defer tx.Rollback()
		if err := s.serialize(ctx, tx, "spend"); err != nil {
			return outcome{}, err
		}
		var sp Spent
		if err := tx.QueryRowContext(ctx, `SELECT
				COALESCE(SUM(CASE WHEN settled = 1 THEN dollars ELSE 0 END), 0),
				COALESCE(SUM(CASE WHEN settled = 0 AND lease_until > ? THEN reserved ELSE 0 END), 0)
			FROM spend`, now.UnixMicro()).Scan(&sp.Dollars, &sp.Reserved); err != nil {
			return outcome{}, err
		}
		if sp.Dollars+sp.Reserved+r.Dollars > capDollars {
			return outcome{false, sp}, nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO spend (id, phase, endpoint, call_key, settled, reserved, input_tokens, output_tokens, dollars, lease_until, at)
			VALUES (?, ?, ?, ?, 0, ?, 0, 0, 0, ?, ?)`,
			r.ID, r.Phase, r.Endpoint, r.CallKey, r.Dollars, r.Until.UnixMicro(), now.UnixMicro()); err != nil {
			return outcome{}, err
		}
		sp.Reserved += r.Dollars
		return outcome{true, sp}, tx.Commit()
	})
	return o.ok, o.sp, err
}

// Settle implements Store.
func (s *sqlStore) Settle(ctx context.Context, id string, st Settlement, now time.Time) error {
	return retryErr(ctx, s, "settling spend", func() error {
		_, err := s.db.ExecContext(ctx, `INSERT INTO spend (id, phase, endpoint, call_key, settled, reserved, input_tokens, output_tokens, dollars, lease_until, at)
			VALUES (?, ?, ?, ?, 1, 0, ?, ?, ?, 0, ?)
			ON CONFLICT (id) DO UPDATE SET settled = 1, input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
				dollars = excluded.dollars, at = excluded.at`,
			id, st.Phase, st.Endpoint, st.CallKey, st.InputTokens, st.OutputTokens, st.Dollars, now.UnixMicro())
		return err
	})
}

// Release implements Store.
func (s *sqlStore) Release(ctx context.Context, id string) error {
	return retryErr(ctx, s, "releasing spend", func() error {
		_, err := s.db.ExecContext(ctx, `DELETE FROM spend WHERE id = ? AND settled = 0`, id)
		return err
	})
}

// Spend implements Store.
func (s *sqlStore) Spend(ctx context.Context) ([]SpendRow, error) {
	return retry(ctx, s, "reading the spend", func() ([]SpendRow, error) {
		rows, err := s.db.QueryContext(ctx, `SELECT phase, endpoint, COUNT(*), SUM(input_tokens), SUM(output_tokens), SUM(dollars)
			FROM spend WHERE settled = 1 GROUP BY phase, endpoint ORDER BY phase, endpoint`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []SpendRow
		for rows.Next() {
			var r SpendRow
			if err := rows.Scan(&r.Phase, &r.Endpoint, &r.Calls, &r.InputTokens, &r.OutputTokens, &r.Dollars); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, rows.Err()
	})
}
