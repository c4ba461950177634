package step

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestStopsAfterAFailedStep runs TestTwoSteps in a child process: its
// first step fails, so the second never runs.
func TestStopsAfterAFailedStep(t *testing.T) {
	if os.Getenv("STEP_TEST_CHILD") == "1" {
		t.Skip("the child runs TestTwoSteps only")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestTwoSteps$", "-test.v")
	cmd.Env = append(os.Environ(), "STEP_TEST_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("a failed step passed:\n%s", out)
	}
	if !strings.Contains(string(out), "--- FAIL: TestTwoSteps/first") || strings.Contains(string(out), "second ran") {
		t.Errorf("want the first step named as failed and the second not run:\n%s", out)
	}
}

func TestTwoSteps(t *testing.T) {
	if os.Getenv("STEP_TEST_CHILD") != "1" {
		t.Skip("run by TestStopsAfterAFailedStep")
	}
	Run(t, "first", func(t *testing.T) { t.Error("fails") })
	Run(t, "second", func(t *testing.T) { t.Log("second ran") })
}
