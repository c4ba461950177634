package sandbox

import (
	"testing"
	"time"
)

// A per-test CPU limit above the program's is lowered to it: a test
// process cannot raise the hard limit the harness has.
func TestNewLimitsTestCPUWithinTotal(t *testing.T) {
	o := Options{TestTimeout: 2 * time.Minute, TotalTimeout: 3 * time.Second}
	o.defaults()
	l := newLimits(o, nil)
	if l.testCPUSeconds != l.cpuSeconds || l.cpuSeconds != 4 {
		t.Errorf("test CPU %ds, program CPU %ds, want both 4s", l.testCPUSeconds, l.cpuSeconds)
	}
	o = Options{}
	o.defaults()
	if l := newLimits(o, nil); l.testCPUSeconds != 7 || l.cpuSeconds != 61 {
		t.Errorf("defaults: test CPU %ds, program CPU %ds, want 7s and 61s", l.testCPUSeconds, l.cpuSeconds)
	}
}
