package cli

import (
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
// asked before. TestSecondInterruptAbandons covers the second interrupt.
func TestInterruptDrainsTheCallsInFlight(t *testing.T) {
	if testing.Short() {
		t.Skip("starts triage processes")
	}
	const llmCells = 2 * 4 * 4 * 3 // solvers × pools × α × variants
	ms := newModelServer(t, 300*time.Millisecond)
	config := writeGrid(t, t.TempDir(), ms.URL)
	cmd, out := startTriage(t, config)
	waitUntil(t, 5*time.Minute, "progress with calls in flight", func() bool {
		received, answered := ms.snapshot()
		return len(answered) >= llmCells/4 && len(received) > len(answered)
	}, out.String)
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

// TestSecondInterruptAbandons: a second interrupt while a run drains
// abandons the calls in flight (a model that takes a minute a call would
// otherwise be waited for) and says so; the run exits 1.
func TestSecondInterruptAbandons(t *testing.T) {
	if testing.Short() {
		t.Skip("starts triage processes")
	}
	ms := newModelServer(t, time.Minute)
	config := writeGrid(t, t.TempDir(), ms.URL)
	cmd, out := startTriage(t, config)
	waitUntil(t, 5*time.Minute, "call in flight", func() bool { received, _ := ms.snapshot(); return len(received) > 0 }, out.String)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 5*time.Minute, "drain notice", func() bool { return strings.Contains(out.String(), drainNotice) }, out.String)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("the run ended with %v, want exit status 1\n%s", err, out.String())
	}
	if want := "stopped: interrupt signal received again; what was stored is kept, and the same command resumes"; !strings.Contains(out.String(), want) {
		t.Errorf("the run did not say %q:\n%s", want, out.String())
	}
	if _, answered := ms.snapshot(); len(answered) != 0 {
		t.Errorf("%d calls answered; the model takes a minute, so the second interrupt did not abandon them", len(answered))
	}
}
