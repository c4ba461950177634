package runstore

import (
	"context"
	"maps"
	"testing"
)

// TestManifestConfigAndScoredPlans: Manifest gives the config recorded
// beside the pools, and EachScoredPlan the plan of every scored cell and of
// no excluded or failed one.
func TestManifestConfigAndScoredPlans(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		if err := rs.SaveManifest(ctx, []byte(`{"Name":"x"}`), []byte(`{"partitions":{"d":[{"Index":0}]}}`)); err != nil {
			t.Fatal(err)
		}
		m, err := rs.Manifest(ctx)
		if err != nil || string(m.Config) != `{"Name":"x"}` || len(m.Partitions["d"]) != 1 {
			t.Fatalf("manifest %+v, config %q, %v", m, m.Config, err)
		}
		saver, err := rs.CellSaver(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer saver.Close()
		outcomes := []CellOutcome{
			{Key: "scored", Fingerprint: "f", Plan: []byte(`{"plan":[1]}`), DoneAt: 1, Scores: []ScoreRecord{scored("scored", 0.5)}},
			{Key: "unparseable", Fingerprint: "f", Plan: []byte(`{"raw":"?"}`), Excluded: "unparseable", DoneAt: 1, Scores: []ScoreRecord{scored("unparseable", 0)}},
			{Key: "error", Fingerprint: "f", Excluded: "error", DoneAt: 1, Scores: []ScoreRecord{scored("error", 0)}},
		}
		if _, err := saver.Save(ctx, "w", outcomes); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		if err := rs.EachScoredPlan(ctx, func(key string, plan []byte) error {
			got[key] = string(plan)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if want := map[string]string{"scored": `{"plan":[1]}`}; !maps.Equal(got, want) {
			t.Errorf("scored plans %v, want %v", got, want)
		}
	})
}
