package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// TestDrainSendsNoQueuedPlannerCall: a run whose concurrency (8) exceeds
// its endpoint's (1), asked to stop (Env.Stop, the first interrupt) while a
// planner call is in flight, sends no call after the stop — not even those
// queued for the endpoint's slot, which a stopping run once sent one after
// another — and the next run asks each remaining cell once: no call is
// asked twice.
func TestDrainSendsNoQueuedPlannerCall(t *testing.T) {
	drainQueued(t, false)
}

// TestDrainSendsNoQueuedCallOfARemotePlanner is
// TestDrainSendsNoQueuedPlannerCall with the Planner a `triage serve`
// process of its own (services.planner), which holds the queued calls: the
// run withdraws those the Planner has not dispatched
// (orchestrator.WithdrawQueued), where it once waited while the Planner
// sent them one after another.
func TestDrainSendsNoQueuedCallOfARemotePlanner(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a triage process")
	}
	drainQueued(t, true)
}

// drainQueued is the drain tests' body; remote serves the Planner as a
// process of its own.
func drainQueued(t *testing.T, remote bool) {
	ms := newModelServer(t, 100*time.Millisecond)
	stop, stopWith := context.WithCancelCause(context.Background())
	defer stopWith(nil)
	var received, late atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if stop.Err() != nil {
			late.Add(1)
		}
		if received.Add(1) == 3 {
			interrupt := func() { stopWith(errors.New("interrupt signal received")) } // with this call in flight, others queued
			if !remote {
				interrupt()
			} else {
				// Not at the very moment the call is dispatched: the run
				// would not have its header yet, and would withdraw it
				// (WithdrawQueued's one edge). The call is held meanwhile:
				// no slot frees before the run has withdrawn the others.
				time.AfterFunc(200*time.Millisecond, interrupt)
				time.Sleep(time.Second)
			}
		}
		ms.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	dir := t.TempDir()
	config := writeGrid(t, dir, front.URL)
	write := func(name, old, new string) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), old) {
			t.Fatalf("%s has no %q", name, old)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("run.yaml", "  - {model: m, mode: extended, endpoint: m-ext}\n", "")
	write("run.yaml", "concurrency: 3", "concurrency: 8")
	if err := os.WriteFile(filepath.Join(dir, "endpoints.json"), []byte(fakemodel.EndpointsFile(map[string]fakemodel.Endpoint{
		"m-std": {BaseURL: front.URL + "/v1", Model: "m-std", Mode: "standard", Timeout: "10s", Concurrency: 1},
	})), 0o644); err != nil {
		t.Fatal(err)
	}
	if remote {
		planner := startService(t, "planner", "--endpoints", filepath.Join(dir, "endpoints.json"))
		f, err := os.OpenFile(config, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "services: {planner: %q}\n", planner.addr)
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}

	env, _, logs := testEnv(nil)
	env.Stop = stop
	err := Run(context.Background(), []string{"run", "--progress", "off", config}, env)
	if err == nil || !strings.Contains(err.Error(), "stopped: interrupt signal received") {
		t.Fatalf("run: %v, want it drained\n%s", err, logs)
	}
	if n := late.Load(); n != 0 {
		t.Errorf("%d planner calls reached the model after the stop, want 0 (the endpoint's one slot was taken by the call in flight)", n)
	}
	asked := received.Load()
	env, _, logs = testEnv(nil)
	if err := Run(context.Background(), []string{"run", "--progress", "off", config}, env); err != nil {
		t.Fatalf("resumed run: %v\n%s", err, logs)
	}
	// The calls not sent were left for this run, not stored as failures
	// (which only a retry of failed cells made up for, and --keep-errors
	// would have kept).
	if !strings.Contains(logs.String(), " 0 failed retried") {
		t.Errorf("the resumed run retried failed cells: the drained run stored its unsent calls as errors\n%s", logs)
	}
	sums, _ := ms.snapshot()
	seen := map[string]bool{}
	for _, s := range sums {
		if seen[s] {
			t.Errorf("a planner call was asked twice (%s…)", s[:12])
		}
		seen[s] = true
	}
	const llmCells = 4 * 4 * 3 // pools × α × variants
	if len(sums) != llmCells {
		t.Errorf("the two runs asked %d calls, want the grid's %d once each", len(sums), llmCells)
	}
	t.Logf("stopped after %d calls; the resumed run asked %d", asked, len(sums)-int(asked))
}
