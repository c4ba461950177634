package cli

import (
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/store/pgtest"
)

// TestRunStopsOnAStoreOutageAndResumes runs `triage run` on a PostgreSQL
// run store whose connection is cut for good in the middle of the run: the
// command exits non-zero once --store-outage has passed, saying the store
// did not answer, what it was doing, the driver's error, and that the same
// command resumes; run again once the store is back, it completes.
func TestRunStopsOnAStoreOutageAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts triage processes")
	}
	location, proxy := pgtest.Proxied(t)
	var calls atomic.Int64
	model := llmtest.NewServer(t, llmtest.WithHandler(func(n int, r llmtest.Recorded) llmtest.Reply {
		if calls.Add(1) == 5 {
			proxy.Cut()
		}
		return planFirstHalf(n, r)
	}))
	config := writeGrid(t, t.TempDir(), strings.TrimSuffix(model.URL(), "/v1"))
	raw, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte(strings.Replace(string(raw), "run_store: run.db", "run_store: "+location, 1)), 0o644); err != nil {
		t.Fatal(err)
	}

	out, err := triageCommand("run", "--progress", "off", "--lease", "5s", "--store-outage", "300ms", config).CombinedOutput()
	if err == nil {
		t.Fatalf("triage run without its store exited 0:\n%s", out)
	}
	text := string(out)
	t.Logf("the stopped run said:\n%s", text)
	for _, want := range []string{"warning: run store", "is not answering", "triage: run store", "unreachable", "last error:", "run the same command again"} {
		if !strings.Contains(text, want) {
			t.Errorf("the output does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "run complete") {
		t.Errorf("a run that stopped says it completed:\n%s", text)
	}

	proxy.Restore()
	out, err = triageCommand("run", "--progress", "off", "--lease", "5s", config).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "run complete") {
		t.Fatalf("the same command again: %v\n%s", err, out)
	}
}
