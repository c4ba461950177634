package orchestrator_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// cuttingModel is planningModel that cuts the proxy as it answers its
// call number at (once), after the run store *rs holds at least one cell
// stored fresh: a resumed run then has something to resume, however slow
// the machine (cells are stored in the background, so the calls before
// the cut do not say when). It waits at most a minute, a bound only to
// catch a hang.
func cuttingModel(proxy *pgtest.Proxy, at int, rs *runstore.Store) func(int, llmtest.Recorded) llmtest.Reply {
	var calls atomic.Int64
	return func(n int, r llmtest.Recorded) llmtest.Reply {
		if calls.Add(1) == int64(at) {
			for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if anyFresh(*rs) {
					break
				}
			}
			proxy.Cut()
		}
		return planningModel(n, r)
	}
}

// anyFresh reports whether rs has a cell stored fresh.
func anyFresh(rs runstore.Store) bool {
	stored, err := rs.Cells(context.Background())
	if err != nil {
		return false
	}
	for _, c := range stored {
		if c.Fresh(c.Fingerprint) {
			return true
		}
	}
	return false
}

// warnings collects what a run store says of an outage.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) add(msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, msg)
}

func (w *warnings) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.lines, "\n")
}

// TestRunRidesOutAStoreOutage cuts the connection to a PostgreSQL run store
// in the middle of a run, and restores it a moment after the store said it
// was not answering: the run waits, goes on, and completes, every cell
// stored, as a run without the outage would.
func TestRunRidesOutAStoreOutage(t *testing.T) {
	location, proxy := pgtest.Proxied(t)
	var rs runstore.Store
	srv := llmtest.NewServer(t, llmtest.WithHandler(cuttingModel(proxy, 5, &rs)))
	cfg := writeFixture(t, t.TempDir(), srv.URL())
	rs, err := runstore.Open(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var said warnings
	rs.RideOutages(runstore.Outage{Wait: 10 * time.Minute, Warn: func(msg string) {
		said.add(msg)
		if strings.Contains(msg, "not answering") {
			go func() {
				time.Sleep(500 * time.Millisecond) // an outage over several tries
				proxy.Restore()
			}()
		}
	}})
	p, err := runOn(t, cfg, orchestrator.Options{}, rs, startServices(t, cfg), nil)
	if err != nil {
		t.Fatalf("run through an outage: %v\n%s", err, &said)
	}
	text := said.String()
	if !strings.Contains(text, "is not answering") || !strings.Contains(text, "answers again") {
		t.Errorf("the store's warnings:\n%s\nwant one that it is not answering and one that it answers again", text)
	}
	if strings.Count(text, "not answering") != 1 {
		t.Errorf("one outage, warned %d times:\n%s", strings.Count(text, "not answering"), text)
	}
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Freshness; f.Fresh != fixtureCells || f.Pending != 0 || p.Done.Load() != fixtureCells {
		t.Errorf("after the outage: %+v, %d done; want all %d cells fresh", f, p.Done.Load(), fixtureCells)
	}
}

// TestRunStopsWhenTheStoreStaysAway cuts the connection to the run store
// for good: the run stops once the outage outlasts Outage.Wait, with an
// error that names the store, says what failed and that the same command
// resumes; run again once the store is back, it resumes and completes.
func TestRunStopsWhenTheStoreStaysAway(t *testing.T) {
	location, proxy := pgtest.Proxied(t)
	var rs runstore.Store
	srv := llmtest.NewServer(t, llmtest.WithHandler(cuttingModel(proxy, 5, &rs)))
	cfg := writeFixture(t, t.TempDir(), srv.URL())
	conn := startServices(t, cfg)
	rs, err := runstore.Open(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var said warnings
	rs.RideOutages(runstore.Outage{Wait: 300 * time.Millisecond, Warn: said.add})
	// Short leases: the cells the stopped run held are taken over soon.
	opts := orchestrator.Options{Lease: 2 * time.Second}
	_, err = runOn(t, cfg, opts, rs, conn, nil)
	var gone *runstore.UnreachableError
	if !errors.As(err, &gone) {
		t.Fatalf("run without its store: %v, want a StoreUnreachableError", err)
	}
	msg := err.Error()
	t.Logf("the run stopped with: %s", msg)
	for _, want := range []string{"run store " + rs.Location(), "unreachable", "last error:", "run the same command again", "resumes"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if !strings.Contains(said.String(), "not answering") {
		t.Errorf("no warning before giving up: %q", said.String())
	}

	proxy.Restore()
	again, err := runstore.Open(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	p, err := runOn(t, cfg, opts, again, conn, nil)
	if err != nil {
		t.Fatalf("the same run again: %v", err)
	}
	if p.Skipped.Load() == 0 || p.Done.Load() != fixtureCells {
		t.Errorf("the second run resumed %d cells and has %d done; want some resumed and all %d done", p.Skipped.Load(), p.Done.Load(), fixtureCells)
	}
}
