package sandbox

import (
	"fmt"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/triage-eval/triage/internal/phase0/grading"
)

// expectation is a test's expected output, kept in Go: the sandbox never
// sees it.
type expectation struct {
	text  string // the expected output as the test case holds it
	value any    // functional tests: text decoded as JSON
}

// outcomePass marks a passed test (grading has no per-test outcome).
const outcomePass grading.Outcome = "pass"

// judge turns one test's result frame into an outcome and detail: how its
// process ended decides runtime errors and timeouts, and a process that
// exited normally is judged on its output, which Go compares with the
// expected output. memoryKilled reports whether the cgroup's OOM killer
// struck during the test.
func judge(tt grading.TestType, want expectation, f frame, memoryKilled bool, memory int64) (grading.Outcome, string) {
	switch f.Status {
	case statusForkFailed:
		return grading.OutcomeRuntimeError, "no process could be started for the test (process limit reached)"
	case statusSignaled:
		sig := syscall.Signal(*f.Code)
		switch {
		case sig == syscall.SIGXCPU:
			return grading.OutcomeTimeout, "CPU time limit exceeded"
		case sig == syscall.SIGKILL && memoryKilled:
			return grading.OutcomeRuntimeError, fmt.Sprintf("memory limit exceeded (%s for all of the program's processes)", bytesString(memory))
		case sig == syscall.SIGXFSZ:
			return grading.OutcomeRuntimeError, "output or file size limit exceeded"
		case sig == syscall.SIGSEGV:
			return grading.OutcomeRuntimeError, "segmentation fault (stack overflow?)"
		}
		name := unix.SignalName(sig)
		if name == "" {
			name = fmt.Sprintf("signal %d", sig)
		}
		if line := lastLine(f.Stderr); line != "" {
			return grading.OutcomeRuntimeError, "killed by " + name + ": " + line
		}
		return grading.OutcomeRuntimeError, "killed by " + name
	}
	if *f.Code != 0 {
		if line := lastLine(f.Stderr); line != "" {
			return grading.OutcomeRuntimeError, line
		}
		return grading.OutcomeRuntimeError, fmt.Sprintf("exit status %d", *f.Code)
	}
	if tt == grading.TestStdin {
		if d := compareStdout(f.Stdout, want.text); d != "" {
			return grading.OutcomeWrongAnswer, d
		}
		return outcomePass, ""
	}
	ok, detail, err := compareResult(f.Stdout, want.value, want.text)
	switch {
	case err != nil:
		return grading.OutcomeRuntimeError, err.Error()
	case !ok:
		return grading.OutcomeWrongAnswer, detail
	}
	return outcomePass, ""
}

// lastLine is the last non-empty line of a test's standard error (the
// exception of a traceback), shortened.
func lastLine(stderr string) string {
	lines := strings.Split(strings.TrimSpace(strings.ToValidUTF8(stderr, "\uFFFD")), "\n")
	return truncate(strings.TrimSpace(lines[len(lines)-1]), 300)
}
