package runstore

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// TestCellSaverStoresEachCellOnce: saving cells together replaces stale and
// failed attempts, never a fresh one, writes their scores, and releases
// the claims, on both backends.
func TestCellSaverStoresEachCellOnce(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		saver, err := rs.CellSaver(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer saver.Close()
		out := func(key, fp, excluded string) CellOutcome {
			return CellOutcome{Key: key, Fingerprint: fp, Excluded: excluded, DoneAt: 1, Scores: []ScoreRecord{scored(key, 0.5)}}
		}
		steps := []struct {
			cells []CellOutcome
			want  map[string]bool
		}{
			{[]CellOutcome{out("a", "f1", ""), out("b", "f1", string(metrics.ExcludedError)), out("c", "f1", "")}, map[string]bool{"a": true, "b": true, "c": true}},
			// a is fresh; b failed and c is stale: both replaced.
			{[]CellOutcome{out("a", "f1", ""), out("b", "f1", ""), out("c", "f2", "")}, map[string]bool{"b": true, "c": true}},
		}
		for i, st := range steps {
			keys := []string{}
			for _, c := range st.cells {
				keys = append(keys, c.Key)
			}
			taken, err := rs.ClaimKeys(ctx, keys, "w", time.Now(), time.Now().Add(time.Minute))
			if err != nil || len(taken) != len(keys) {
				t.Fatalf("step %d: claim = %v, %v", i, taken, err)
			}
			stored, err := saver.Save(ctx, "w", st.cells)
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			got := map[string]bool{}
			for k, ok := range stored {
				if ok {
					got[k] = true
				}
			}
			if !maps.Equal(got, st.want) {
				t.Errorf("step %d: stored %v, want %v", i, got, st.want)
			}
			if holders, err := rs.Holders(ctx); err != nil || len(holders) != 0 {
				t.Errorf("step %d: claims left %v, %v", i, holders, err)
			}
		}
		cells, err := rs.Cells(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(cells) != 3 || cells["c"].Fingerprint != "f2" || cells["b"].Excluded != "" {
			t.Errorf("stored cells %+v", cells)
		}
		res, err := rs.Results(ctx)
		if err != nil || len(res.Records) != 3 {
			t.Errorf("results: %d records, %v; want one per cell", len(res.Records), err)
		}
	})
}

// TestClaimKeysRenewAllReleaseKeys: keys are claimed once, renewed
// together and released together.
func TestClaimKeysRenewAllReleaseKeys(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		now := time.Now()
		if taken, err := rs.ClaimKeys(ctx, []string{"x", "y"}, "a", now, now.Add(time.Minute)); err != nil || len(taken) != 2 {
			t.Fatalf("a claims: %v, %v", taken, err)
		}
		if taken, err := rs.ClaimKeys(ctx, []string{"x", "z"}, "b", now, now.Add(time.Minute)); err != nil || !maps.Equal(taken, map[string]bool{"z": true}) {
			t.Fatalf("b claims: %v, %v; want z only", taken, err)
		}
		later := now.Add(time.Hour).Truncate(time.Microsecond)
		if err := rs.RenewAll(ctx, "a", later); err != nil {
			t.Fatal(err)
		}
		holders, err := rs.Holders(ctx)
		if err != nil || !holders["x"].Equal(later) || !holders["y"].Equal(later) || holders["z"].Equal(later) {
			t.Errorf("after RenewAll: %v, %v", holders, err)
		}
		if err := rs.ReleaseKeys(ctx, "a", []string{"x", "y", "z"}); err != nil {
			t.Fatal(err)
		}
		if holders, err := rs.Holders(ctx); err != nil || len(holders) != 1 {
			t.Errorf("after ReleaseKeys: %v, %v; want b's z only", holders, err)
		}
	})
}
