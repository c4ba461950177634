package cli

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// modelServer is an OpenAI-compatible endpoint that plans the first half of
// each pool after a delay, and records every request it received and every
// one it finished answering (the response written while the client was
// still connected).
type modelServer struct {
	*httptest.Server
	mu       sync.Mutex
	received []string             // request body hashes, in arrival order
	answered map[string]time.Time // when each call's response was delivered
}

func newModelServer(t *testing.T, delay time.Duration) *modelServer {
	ms := &modelServer{answered: map[string]time.Time{}}
	ms.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Model    string `json:"model"`
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		raw := make([]byte, 0, 4096)
		buf := make([]byte, 4096)
		for {
			n, err := r.Body.Read(buf)
			raw = append(raw, buf[:n]...)
			if err != nil {
				break
			}
		}
		_ = json.Unmarshal(raw, &body)
		sum := fmt.Sprintf("%x", sha256.Sum256(raw))
		ms.mu.Lock()
		ms.received = append(ms.received, sum)
		ms.mu.Unlock()
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		ids := fakemodel.PlannerIDs(body.Messages[0].Content)
		content, _ := json.Marshal(fakemodel.Plan(fakemodel.FirstHalf(ids), 700))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"x","object":"chat.completion","model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`, body.Model, content)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		if r.Context().Err() == nil {
			ms.mu.Lock()
			if _, seen := ms.answered[sum]; !seen {
				ms.answered[sum] = time.Now()
			}
			ms.mu.Unlock()
		}
	}))
	t.Cleanup(ms.Close)
	return ms
}

func (ms *modelServer) snapshot() ([]string, map[string]time.Time) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	answered := map[string]time.Time{}
	for k, v := range ms.answered {
		answered[k] = v
	}
	return append([]string(nil), ms.received...), answered
}

// writeGrid writes a small grid with the llm strategy into dir.
func writeGrid(t *testing.T, dir, url string) string {
	t.Helper()
	var probs, gt strings.Builder
	for i := range 24 {
		id := fmt.Sprintf("q%02d", i)
		fmt.Fprintf(&probs, `{"id":"%s","dataset":"d","text":"[synthetic] %s %s"}`+"\n", id, id, strings.Repeat("y", i%7))
		for _, mode := range []string{"standard", "extended"} {
			fmt.Fprintf(&gt, `{"model":"m","mode":"%s","dataset":"d","problem_id":"%s","cost":%d,"correct":%v,"measured_at":"2026-01-01T00:00:00Z"}`+"\n",
				mode, id, 200+37*i+len(mode), i%3 != 1)
		}
	}
	files := map[string]string{
		"problems.jsonl": probs.String(),
		"gt.jsonl":       gt.String(),
		"endpoints.json": fakemodel.EndpointsFile(map[string]fakemodel.Endpoint{
			"m-std": {BaseURL: url + "/v1", Model: "m-std", Mode: "standard", Timeout: "10s"},
			"m-ext": {BaseURL: url + "/v1", Model: "m-ext", Mode: "extended", Timeout: "10s"},
		}),
		"run.yaml": `name: resume
run_store: run.db
ground_truth_store: gt.db
problems: [problems.jsonl]
ground_truth: [gt.jsonl]
solvers:
  - {model: m, mode: standard, endpoint: m-std}
  - {model: m, mode: extended, endpoint: m-ext}
pool_size: 6
alphas: [0.25, 0.5, 0.75, 1.0]
variants: [default, A, C]
strategies: [llm, random]
random: {samples: 100, seed: 1}
concurrency: 3
endpoints: endpoints.json
llm_cache: llm-cache.db
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "run.yaml")
}

func triageProcess(config string) *exec.Cmd {
	return triageCommand("run", "--progress", "off", config)
}

// startTriage starts a triage run of config in a process of its own, its
// output collected as it comes, and kills it when the test ends (a no-op
// once it has exited).
func startTriage(t *testing.T, config string) (*exec.Cmd, *servertest.LogBuffer) {
	t.Helper()
	cmd := triageProcess(config)
	out := &servertest.LogBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, out
}

// triageCommand is the command running this test binary as `triage` with
// args (see TestMain).
func triageCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TRIAGE_TEST_AS_MAIN=1")
	return cmd
}

func results(t *testing.T, config string) string {
	t.Helper()
	cfg, err := orchestrator.LoadConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := runstore.Open(context.Background(), cfg.Path(cfg.RunStore))
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res.Records)
	return string(out)
}

// TestResumeAfterKill kills a real triage run with SIGKILL in the middle,
// starts it again, and checks from the model server's log that no call
// answered before the kill was made again, and that the results equal an
// uninterrupted run's.
//
// One window is unavoidable: a response the process has received but not
// yet written to its cache dies with it. The test kills right as responses
// arrive, so it meets that window on purpose; such calls (at most one per
// concurrent worker, answered within the last moments before the kill) may
// be asked again, and the test bounds them. Every call answered longer ago
// than persistWindow must never be asked again.
func TestResumeAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts triage processes")
	}
	const llmCells = 2 * 4 * 4 * 3 // solvers × pools × α × variants

	// Uninterrupted reference run.
	ref := newModelServer(t, 0)
	refConfig := writeGrid(t, t.TempDir(), ref.URL)
	if out, err := triageProcess(refConfig).CombinedOutput(); err != nil {
		t.Fatalf("reference run: %v\n%s", err, out)
	}
	if got, _ := ref.snapshot(); len(got) != llmCells {
		t.Fatalf("reference run asked the model %d times, want %d", len(got), llmCells)
	}

	ms := newModelServer(t, 60*time.Millisecond)
	config := writeGrid(t, t.TempDir(), ms.URL)
	cmd := triageProcess(config)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Minute) // only catches a hang
	for {
		if _, answered := ms.snapshot(); len(answered) >= llmCells/3 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the run made no progress")
		}
		time.Sleep(5 * time.Millisecond)
	}
	killedAt := time.Now()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	receivedBefore, answeredBefore := ms.snapshot()
	if len(answeredBefore) >= llmCells {
		t.Fatal("the run finished before it was killed; nothing was tested")
	}

	if out, err := triageProcess(config).CombinedOutput(); err != nil {
		t.Fatalf("resumed run: %v\n%s", err, out)
	}
	// A response answered but not yet written when the process died is
	// asked again: at most one per worker. How long before the kill it was
	// answered is logged, not checked: on a loaded machine the write can
	// lag the answer by any time.
	received, _ := ms.snapshot()
	repeated := 0
	for _, sum := range received[len(receivedBefore):] {
		at, answered := answeredBefore[sum]
		if !answered {
			continue
		}
		repeated++
		t.Logf("a call answered %v before the kill was asked again after the restart (%s…)", killedAt.Sub(at), sum[:12])
	}
	if repeated > 3 { // the config's concurrency
		t.Errorf("%d answered calls were asked again; at most one per worker may be lost in flight", repeated)
	}
	t.Logf("killed after %d answered calls (%d received); the restart made %d calls, %d of them repeats of calls answered in the last moments",
		len(answeredBefore), len(receivedBefore), len(received)-len(receivedBefore), repeated)
	if got, want := results(t, config), results(t, refConfig); got != want {
		t.Errorf("results after kill and resume differ from an uninterrupted run's:\n%s\n%s", got, want)
	}
}
