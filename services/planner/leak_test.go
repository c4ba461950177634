package planner_test

import (
	"testing"

	"github.com/triage-eval/triage/internal/testkit/leakcheck"
)

// TestMain fails the package's tests if they leave a goroutine running.
func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
