package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// workerProcess starts `triage run` on config as one worker of a shared run.
func workerProcess(t *testing.T, config, name string) *exec.Cmd {
	t.Helper()
	cmd := triageCommand("run", "--progress", "off", "--worker", name, "--lease", "5s", config)
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
		if t.Failed() {
			t.Logf("%s:\n%s", name, out.String())
		}
	})
	return cmd
}

// TestWorkersShareARun starts three `triage run` processes on one
// PostgreSQL run store, LLM cache and ground-truth store, kills one with
// SIGKILL in the middle, and checks that the others finish the run: every
// cell stored once, no prompt answered twice except the one the killed
// worker had in flight, and the results equal a single process's.
func TestWorkersShareARun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts triage processes")
	}
	location := pgtest.Location(t)
	const llmCells = 2 * 4 * 4 * 3 // solvers × pools × α × variants
	const cells = 2 * 4 * 4 * 4    // … × (3 llm variants + random)

	// A single-process reference run on SQLite.
	ref := newModelServer(t, 0)
	refConfig := writeGrid(t, t.TempDir(), ref.URL)
	if out, err := triageProcess(refConfig).CombinedOutput(); err != nil {
		t.Fatalf("reference run: %v\n%s", err, out)
	}

	ms := newModelServer(t, 40*time.Millisecond)
	config := writeGrid(t, t.TempDir(), ms.URL)
	raw, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	shared := strings.NewReplacer(
		"run_store: run.db", "run_store: "+location,
		"ground_truth_store: gt.db", "ground_truth_store: "+location,
		"llm_cache: llm-cache.db", "llm_cache: "+location,
		"concurrency: 3", "concurrency: 1", // at most one call in flight per worker
	).Replace(string(raw))
	if err := os.WriteFile(config, []byte(shared), 0o644); err != nil {
		t.Fatal(err)
	}

	workers := []*exec.Cmd{
		workerProcess(t, config, "w1"),
		workerProcess(t, config, "w2"),
		workerProcess(t, config, "w3"),
	}
	deadline := time.Now().Add(5 * time.Minute) // only catches a hang
	for {
		if _, answered := ms.snapshot(); len(answered) >= llmCells/3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run made no progress")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := workers[0].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = workers[0].Wait()
	for i, w := range workers[1:] {
		if err := w.Wait(); err != nil {
			t.Fatalf("worker %d: %v", i+2, err)
		}
	}

	received, answered := ms.snapshot()
	if len(answered) != llmCells {
		t.Errorf("%d distinct prompts answered, want %d (one per llm cell)", len(answered), llmCells)
	}
	seen := map[string]int{}
	for _, sum := range received {
		seen[sum]++
	}
	repeated := 0
	for _, n := range seen {
		repeated += n - 1
	}
	if repeated > 1 {
		t.Errorf("%d prompts were asked again; at most the killed worker's one call in flight may be", repeated)
	}

	rs, err := runstore.Open(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	stored, err := rs.Cells(context.Background())
	if err != nil || len(stored) != cells {
		t.Fatalf("%d cells stored, want %d: %v", len(stored), cells, err)
	}
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Freshness.Fresh != cells || res.Freshness.Stale+res.Freshness.Pending+res.Freshness.Outside != 0 {
		t.Errorf("freshness %+v", res.Freshness)
	}
	if got, want := resultsOf(t, rs), results(t, refConfig); got != want {
		t.Errorf("the shared run's results differ from a single process's:\n%s\n%s", got, want)
	}
	t.Logf("%d calls for %d prompts; %d asked again", len(received), len(answered), repeated)
}

// resultsOf is results for an open run store.
func resultsOf(t *testing.T, rs runstore.Store) string {
	t.Helper()
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res.Records)
	return string(out)
}

// TestLeaseFlag: --lease takes a duration of at least work.MinLease; 0, a
// negative or a too short lease is refused as the flag is parsed (they were
// once taken as the default, and a 50 ms lease let workers take over each
// other's units in progress).
func TestLeaseFlag(t *testing.T) {
	for in, want := range map[string]time.Duration{"5s": 5 * time.Second, "90s": 90 * time.Second, "1h": time.Hour} {
		var got time.Duration
		if err := (leaseValue{&got}).Set(in); err != nil || got != want {
			t.Errorf("Set(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "-1s", "50ms", "4s", "soon"} {
		var got time.Duration
		if err := (leaseValue{&got}).Set(in); err == nil {
			t.Errorf("Set(%q) accepted: %v", in, got)
		}
	}
}

// TestWorkersWithAnotherConfigAreRefused: a worker started on a run store
// that another live worker is running with a different config (here its
// random seed) is refused, naming that worker, after waiting once for its
// leases, and the running one finishes as if alone; two such workers once
// both ran, overwrote each other's grid and mixed their cells. The model
// holds worker A's calls until B is refused, so that A is surely alive
// then, however slow the machine.
func TestWorkersWithAnotherConfigAreRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("starts triage processes")
	}
	ms := newModelServer(t, 0)
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	var asked atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		<-release
		ms.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	t.Cleanup(free) // runs first: front.Close waits for the held calls
	dir := t.TempDir()
	config := writeGrid(t, dir, front.URL)
	raw, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.yaml")
	if err := os.WriteFile(other, []byte(strings.Replace(string(raw), "random: {samples: 100, seed: 1}", "random: {samples: 100, seed: 2}", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	a := workerProcess(t, config, "A")
	deadline := time.Now().Add(5 * time.Minute) // only catches a hang
	for asked.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("worker A made no call")
		}
		time.Sleep(10 * time.Millisecond)
	}
	env, _, logs := testEnv(nil)
	err = Run(context.Background(), []string{"run", "--progress", "off", "--worker", "B", other}, env)
	free()
	if err == nil || !strings.Contains(err.Error(), "worker A is running it with another config") {
		t.Errorf("worker B with another config: %v, want it refused naming A\n%s", err, logs)
	}
	if !strings.Contains(logs.String(), "worker A holds cells of this run store with another config") {
		t.Errorf("worker B did not say what it waited for:\n%s", logs)
	}
	if err := a.Wait(); err != nil {
		t.Errorf("worker A: %v", err)
	}
}
