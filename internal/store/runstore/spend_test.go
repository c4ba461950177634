package runstore

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestSpend(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		res := func(id string, dollars float64, until time.Time) Reservation {
			return Reservation{ID: id, Phase: "phase0_baseline", Endpoint: "q", CallKey: "k-" + id, Dollars: dollars, Until: until}
		}
		reserve := func(r Reservation, cap float64, now time.Time) (bool, Spent) {
			t.Helper()
			ok, sp, err := rs.Reserve(ctx, r, cap, now)
			if err != nil {
				t.Fatal(err)
			}
			return ok, sp
		}
		if ok, _ := reserve(res("a", 4, t0.Add(time.Hour)), 10, t0); !ok {
			t.Fatal("a first reservation within the cap was refused")
		}
		if ok, sp := reserve(res("b", 7, t0.Add(time.Hour)), 10, t0); ok || sp.Reserved != 4 || sp.Dollars != 0 {
			t.Fatalf("a reservation crossing the cap: held %v, spent %+v", ok, sp)
		}
		if err := rs.Settle(ctx, "a", Settlement{InputTokens: 1000, OutputTokens: 200, Dollars: 1.5}, t0); err != nil {
			t.Fatal(err)
		}
		// Settled at 1.5, the 7 now fits under 10.
		if ok, sp := reserve(res("b", 7, t0.Add(time.Minute)), 10, t0); !ok || sp.Dollars != 1.5 || sp.Reserved != 7 {
			t.Fatalf("after settling: held %v, spent %+v", ok, sp)
		}
		// b's lease lapses (its worker died): it holds nothing after.
		if ok, sp := reserve(res("c", 8, t0.Add(time.Hour)), 10, t0.Add(2*time.Minute)); !ok || sp.Reserved != 8 {
			t.Fatalf("after b lapsed: held %v, spent %+v", ok, sp)
		}
		if err := rs.Release(ctx, "c"); err != nil {
			t.Fatal(err)
		}
		if ok, sp := reserve(res("d", 8.5, t0.Add(time.Hour)), 10, t0.Add(2*time.Minute)); !ok || sp.Reserved != 8.5 {
			t.Fatalf("after c was released: held %v, spent %+v", ok, sp)
		}
		if err := rs.Settle(ctx, "d", Settlement{InputTokens: 10, OutputTokens: 20, Dollars: 0.25}, t0); err != nil {
			t.Fatal(err)
		}
		// An uncapped run records calls it never reserved.
		if err := rs.Settle(ctx, "e", Settlement{Phase: "phase1_planning", Endpoint: "q", CallKey: "cell", InputTokens: 5, OutputTokens: 6, Dollars: 0.5}, t0); err != nil {
			t.Fatal(err)
		}
		rows, err := rs.Spend(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []SpendRow{
			{Phase: "phase0_baseline", Endpoint: "q", Calls: 2, InputTokens: 1010, OutputTokens: 220, Dollars: 1.75},
			{Phase: "phase1_planning", Endpoint: "q", Calls: 1, InputTokens: 5, OutputTokens: 6, Dollars: 0.5},
		}
		if len(rows) != 2 || rows[0] != want[0] || rows[1] != want[1] {
			t.Errorf("Spend = %+v, want %+v", rows, want)
		}
	})
}

// TestReserveIsAtomic races 20 reservations of $1 against a $5 cap: exactly
// five are held, whichever they are.
func TestReserveIsAtomic(t *testing.T) {
	backends(t, func(t *testing.T, location string) {
		ctx := context.Background()
		rs := openTest(t, location)
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		var held atomic.Int64
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				ok, _, err := rs.Reserve(ctx, Reservation{ID: fmt.Sprint(i), Phase: "p", Endpoint: "e", CallKey: "k", Dollars: 1, Until: t0.Add(time.Hour)}, 5, t0)
				if err != nil {
					t.Error(err)
				}
				if ok {
					held.Add(1)
				}
			})
		}
		wg.Wait()
		if held.Load() != 5 {
			t.Errorf("%d reservations of $1 held under a $5 cap", held.Load())
		}
	})
}
