package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// planFirstHalf is a model that plans the first half of the pool its
// prompt shows, 700 tokens each.
func planFirstHalf(_ int, r llmtest.Recorded) llmtest.Reply {
	ids := fakemodel.PlannerIDs(fakemodel.Parse(r).Prompt())
	return llmtest.OK(fakemodel.Plan(fakemodel.FirstHalf(ids), 700))
}

// serviceProcess is one `triage serve --services NAME` process on a fixed
// address, which a test stops and starts again.
type serviceProcess struct {
	t    *testing.T
	name string
	addr string
	args []string
	cmd  *exec.Cmd
	logs *servertest.LogBuffer
}

func startService(t *testing.T, name string, args ...string) *serviceProcess {
	p := &serviceProcess{t: t, name: name, addr: servertest.FreeLoopbackAddr(t), args: args, logs: &servertest.LogBuffer{}}
	p.start()
	t.Cleanup(func() {
		if p.cmd != nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("%s logs:\n%s", p.name, p.logs)
		}
	})
	return p
}

// start runs the process and returns once it answers health checks.
func (p *serviceProcess) start() {
	p.t.Helper()
	args := append([]string{"serve", "--services", p.name, "--listen", p.addr, "--drain", "300ms", "--shutdown-grace", "2s", "--log-level", "warn"}, p.args...)
	p.cmd = triageCommand(args...)
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	cc, err := grpc.NewClient(p.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		p.t.Fatal(err)
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // only catches a hang
	defer cancel()
	if _, err := healthpb.NewHealthClient(cc).Check(ctx, &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true)); err != nil {
		p.t.Fatalf("%s did not start: %v\n%s", p.name, err, p.logs)
	}
}

// restart stops the process with sig, keeps it down until down returns,
// and starts it again on the same address.
func (p *serviceProcess) restart(sig syscall.Signal, down func()) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatal(err)
	}
	err := p.cmd.Wait()
	if sig == syscall.SIGTERM && err != nil {
		p.t.Errorf("%s exited with %v after SIGTERM\n%s", p.name, err, p.logs)
	}
	p.cmd = nil
	down()
	p.start()
}

// TestRunSurvivesServiceRestarts runs a grid against three `triage serve`
// processes, one per service, and restarts each of them twice during the
// run: by SIGTERM (drain, then graceful stop; the Planner's grace is shorter
// than its model calls, so those in flight are cut off) and by SIGKILL (a
// crash, calls in flight), each time kept down until the run is waiting for
// it. The run must complete with no cell stored as an error, and store
// exactly what an undisturbed run stores. Before the clients retried
// Unavailable and waited for ready, a restarted Oracle or Executor aborted
// the run and a restarted Planner left error cells.
func TestRunSurvivesServiceRestarts(t *testing.T) {
	if testing.Short() {
		t.Skip("starts triage processes")
	}
	const llmCells = 2 * 4 * 4 * 3 // solvers × pools × α × variants (writeGrid)

	ref := llmtest.NewServer(t, llmtest.WithHandler(planFirstHalf), llmtest.WithoutLog())
	refConfig := writeGrid(t, t.TempDir(), strings.TrimSuffix(ref.URL(), "/v1"))
	if out, err := triageProcess(refConfig).CombinedOutput(); err != nil {
		t.Fatalf("undisturbed run: %v\n%s", err, out)
	}

	model := llmtest.NewServer(t, llmtest.WithHandler(planFirstHalf), llmtest.WithoutLog(), llmtest.WithLatency(250*time.Millisecond))
	dir := t.TempDir()
	config := writeGrid(t, dir, strings.TrimSuffix(model.URL(), "/v1"))
	// The services are separate processes; the run imports its ground
	// truth into the Executor's store.
	oracle := startService(t, "oracle")
	executor := startService(t, "executor", "--store", filepath.Join(dir, "executor-gt.db"))
	// The Planner's grace is shorter than a model call: a SIGTERM cuts off
	// the CreatePlan calls in flight after the drain.
	planner := startService(t, "planner", "--endpoints", filepath.Join(dir, "endpoints.json"), "--llm-cache", filepath.Join(dir, "planner-cache.db"), "--shutdown-grace", "100ms")
	f, err := os.OpenFile(config, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "services: {oracle: %q, executor: %q, planner: %q}\n", oracle.addr, executor.addr, planner.addr)
	f.Close()

	run, runOut := startTriage(t, config)
	var runErr error
	ran := make(chan struct{}) // closed when the run has exited, with runErr
	go func() { runErr = run.Wait(); close(ran) }()
	defer func() {
		select {
		case <-ran:
		default:
			run.Process.Kill()
			<-ran
		}
	}()

	restarts := []struct {
		p   *serviceProcess
		sig syscall.Signal
	}{
		{oracle, syscall.SIGTERM},
		{executor, syscall.SIGTERM},
		{planner, syscall.SIGTERM},
		{oracle, syscall.SIGKILL},
		{executor, syscall.SIGKILL},
		{planner, syscall.SIGKILL},
	}
	for i, r := range restarts {
		// Spread the restarts over the run by the model's progress.
		want := (i + 1) * llmCells / (len(restarts) + 2)
		deadline := time.Now().Add(time.Minute)
		for model.Count() < want {
			select {
			case <-ran:
				t.Fatalf("the run ended (%v) before restart %d:\n%s", runErr, i, runOut)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("no progress before restart %d (%d model calls):\n%s", i, model.Count(), runOut)
			}
			time.Sleep(5 * time.Millisecond)
		}
		calls := model.Count()
		if calls >= llmCells {
			t.Fatalf("the run had made all its model calls before restart %d: it was not disturbed", i)
		}
		t.Logf("restart %d: %s with %v after %d of %d model calls", i, r.p.name, r.sig, calls, llmCells)
		r.p.restart(r.sig, func() {
			waitStalled(t, model, i, runOut)
			select {
			case <-ran:
				t.Fatalf("restart %d: the run ended (%v) while %s was down:\n%s", i, runErr, r.p.name, runOut)
			default:
			}
			if n := model.Count(); n >= llmCells {
				t.Fatalf("restart %d: the run made all its model calls while %s was down", i, r.p.name)
			}
			t.Logf("restart %d: the run waited for %s at %d model calls", i, r.p.name, model.Count())
		})
	}
	select {
	case <-ran:
		if runErr != nil {
			t.Fatalf("the disturbed run failed: %v\n%s", runErr, runOut)
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("the disturbed run did not finish:\n%s", runOut)
	}

	recs := storedRecords(t, config)
	errorCells := 0
	for _, r := range recs {
		if r.Excluded != "" {
			errorCells++
		}
	}
	if errorCells > 0 {
		t.Errorf("%d score records excluded (%s…):\n%s", errorCells, recs[0].Detail, runOut)
	}
	if got, want := results(t, config), results(t, refConfig); got != want {
		t.Errorf("the disturbed run stored other results than an undisturbed one:\n%s\n%s", got, want)
	}
	if !strings.Contains(runOut.String(), " 0 planner errors now") {
		t.Errorf("run summary:\n%s", runOut)
	}
}

// waitStalled returns once the model has received no request for a while:
// the run is waiting for the service that is down (every cell needs the
// Planner and the Executor; each pool's first cell needs the Oracle).
func waitStalled(t *testing.T, model *llmtest.Server, restart int, runOut *servertest.LogBuffer) {
	t.Helper()
	const quiet = 750 * time.Millisecond // the model answers a call every ~85 ms when the run flows
	deadline := time.Now().Add(time.Minute)
	last, since := model.Count(), time.Now()
	for time.Since(since) < quiet {
		if time.Now().After(deadline) {
			t.Fatalf("restart %d: the run never waited for the service that was down:\n%s", restart, runOut)
		}
		time.Sleep(10 * time.Millisecond)
		if n := model.Count(); n != last {
			last, since = n, time.Now()
		}
	}
}

// storedRecords reads a config's stored score records.
func storedRecords(t *testing.T, config string) []excludedRecord {
	t.Helper()
	var recs []excludedRecord
	if err := json.Unmarshal([]byte(results(t, config)), &recs); err != nil {
		t.Fatal(err)
	}
	return recs
}

// excludedRecord is the part of a score record that says whether it
// entered the means.
type excludedRecord struct {
	Excluded string
	Detail   string
}
