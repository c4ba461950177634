package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptDrainsTheCallsInFlight interrupts a real triage run (SIGINT)
// while model calls are in flight and checks what the user was told: the
// run starts no new call, every call the model received is answered and
// not abandoned, the run exits non-zero saying it stopped, and the next
// run finds every answered cell stored and asks the model nothing it was
// asked before. A second interrupt abandons the calls (not tested here:
// that is today's SIGKILL case, TestResumeAfterKill).
func TestInterruptDrainsTheCallsInFlight(t *testing.T) {
	if testing.Short() {
		t.Skip("starts triage processes")
	}
	const llmCells = 2 * 4 * 4 * 3 // solvers × pools × α × variants
	ms := newModelServer(t, 300*time.Millisecond)
	config := writeGrid(t, t.TempDir(), ms.URL)
	cmd := triageProcess(config)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Minute) // only catches a hang
	for {
		received, answered := ms.snapshot()
		if len(answered) >= llmCells/4 && len(received) > len(answered) {
			break // calls are in flight
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the run made no progress\n%s", out.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("the interrupted run ended with %v, want exit status 1\n%s", err, out.String())
	}
	for _, want := range []string{drainNotice, "stopped: interrupt signal received; the model calls in flight were answered and stored"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the interrupted run did not say %q:\n%s", want, out.String())
		}
	}
	receivedBefore, answeredBefore := ms.snapshot()
	if len(answeredBefore) >= llmCells {
		t.Fatal("the run finished before it stopped; nothing was tested")
	}
	for _, sum := range receivedBefore {
		if _, ok := answeredBefore[sum]; !ok {
			t.Errorf("a call in flight was abandoned (%s…)", sum[:12])
		}
	}

	resumed, err := triageProcess(config).CombinedOutput()
	if err != nil {
		t.Fatalf("resumed run: %v\n%s", err, resumed)
	}
	received, _ := ms.snapshot()
	for _, sum := range received[len(receivedBefore):] {
		if _, ok := answeredBefore[sum]; ok {
			t.Errorf("a call answered before the interrupt was asked again (%s…)", sum[:12])
		}
	}
	m := regexp.MustCompile(`run complete: \d+ cells \((\d+) fresh from before`).FindSubmatch(resumed)
	if m == nil {
		t.Fatalf("no summary in the resumed run's output:\n%s", resumed)
	}
	if fresh, _ := strconv.Atoi(string(m[1])); fresh < len(answeredBefore) {
		t.Errorf("the resumed run found %d cells stored, want at least the %d whose calls were answered\n%s", fresh, len(answeredBefore), resumed)
	}
	t.Logf("stopped after %d answered calls (%d received); the resumed run made %d calls", len(answeredBefore), len(receivedBefore), len(received)-len(receivedBefore))
}
