package cli

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/servertest"
)

// TestSecondSignalCutsTheShutdownShort: a triage serve that drains for a
// minute after its first SIGTERM stops at once on the second, saying so;
// the second was ignored, and the process took its whole drain and grace.
func TestSecondSignalCutsTheShutdownShort(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a triage process")
	}
	logs := &servertest.LogBuffer{}
	cmd := triageCommand("serve", "--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--services", "oracle",
		"--llm-cache", "off", "--drain", "1m", "--shutdown-grace", "1m")
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	serveAddrs(t, logs, exited)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute) // a hang bound only
	for !strings.Contains(logs.String(), "draining") {
		if time.Now().After(deadline) {
			t.Fatalf("no drain after SIGTERM:\n%s", logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(45 * time.Second): // the drain alone is a minute
		t.Fatalf("the second SIGTERM did not cut the minute's drain short:\n%s", logs)
	}
}
