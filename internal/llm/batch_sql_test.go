package llm

import (
	"context"
	"reflect"
	"testing"
	"time"
)

// TestBatchStoreBackends: a saved batch is pending, with its keys, for its
// base URL only, until finished; on every backend.
func TestBatchStoreBackends(t *testing.T) {
	for name, location := range cacheLocations(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			loc := location(t)
			c := openTestCache(t, loc)
			a := StoredBatch{ID: "batch_a", BaseURL: "http://x/v1", CreatedAt: testNow, Keys: []string{"k2", "k1"}}
			b := StoredBatch{ID: "batch_b", BaseURL: "http://x/v1", CreatedAt: testNow.Add(time.Second), Keys: []string{"k3"}}
			other := StoredBatch{ID: "batch_o", BaseURL: "http://y/v1", CreatedAt: testNow, Keys: []string{"k1"}}
			for _, sb := range []StoredBatch{b, a, other} {
				if err := c.SaveBatch(ctx, sb); err != nil {
					t.Fatal(err)
				}
			}
			if err := c.SaveBatch(ctx, a); err == nil {
				t.Error("saving a batch id twice succeeded")
			}
			got, err := openTestCache(t, loc).PendingBatches(ctx, "http://x/v1")
			a.Keys = []string{"k1", "k2"}
			if want := []StoredBatch{a, b}; err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("pending = %+v, %v; want %+v", got, err, want)
			}
			if err := c.FinishBatch(ctx, "batch_a", BatchCompleted, testNow); err != nil {
				t.Fatal(err)
			}
			got, err = c.PendingBatches(ctx, "http://x/v1")
			if err != nil || len(got) != 1 || got[0].ID != "batch_b" {
				t.Errorf("pending after finishing batch_a = %+v, %v", got, err)
			}
			// Answers are unreported once their batch is finished, for its
			// base URL, until marked.
			unreported := func() map[string][]string {
				t.Helper()
				m, err := c.UnreportedAnswers(ctx, "http://x/v1")
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			if got, want := unreported(), map[string][]string{"k1": {"batch_a"}, "k2": {"batch_a"}}; !reflect.DeepEqual(got, want) {
				t.Errorf("unreported = %v, want %v", got, want)
			}
			if err := c.MarkReported(ctx, "k2"); err != nil {
				t.Fatal(err)
			}
			// A request two finished batches held (the first did not
			// answer it, a later one did) is listed with both.
			again := StoredBatch{ID: "batch_0", BaseURL: "http://x/v1", CreatedAt: testNow.Add(2 * time.Second), Keys: []string{"k1"}}
			if err := c.SaveBatch(ctx, again); err != nil {
				t.Fatal(err)
			}
			if err := c.FinishBatch(ctx, "batch_0", BatchCompleted, testNow); err != nil {
				t.Fatal(err)
			}
			if got, want := unreported(), map[string][]string{"k1": {"batch_0", "batch_a"}}; !reflect.DeepEqual(got, want) {
				t.Errorf("unreported after marking k2 = %v, want %v", got, want)
			}
			if err := c.MarkReported(ctx, "k1"); err != nil {
				t.Fatal(err)
			}
			if got := unreported(); len(got) != 0 {
				t.Errorf("unreported after marking k1 = %v, want none", got)
			}
		})
	}
}
