package work_test

import (
	"testing"

	"github.com/triage-eval/triage/internal/testkit/leakcheck"
)

// TestMain fails the binary if a test leaves a goroutine running.
func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
