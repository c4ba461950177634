package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/phase0/grading"
)

// cgroupModes lists the cgroup modes usable here: v1 and v2 where the
// machine allows them, and always the rlimit fallback.
func cgroupModes(t *testing.T) []CgroupMode {
	t.Helper()
	var modes []CgroupMode
	for _, m := range []CgroupMode{CgroupV1, CgroupV2} {
		if cgroupsUsable(t, m) {
			modes = append(modes, m)
		} else {
			t.Logf("cgroup %s is not usable on this machine: not tested", m)
		}
	}
	return append(modes, CgroupNone)
}

// TestResourceLimits runs resource attacks under each cgroup mode. The
// modes run one after the other: a fork bomb uses the CPU it is given
// until its time limit and would slow a parallel mode's programs.
func TestResourceLimits(t *testing.T) {
	t.Parallel()
	for _, mode := range cgroupModes(t) {
		t.Run("cgroup="+string(mode), func(t *testing.T) {
			s := newSandbox(t, Options{Cgroup: mode, TestTimeout: 3 * time.Second, TotalTimeout: 20 * time.Second})
			t.Logf("%s", s.Isolation())
			if mode != CgroupNone && s.Isolation().Cgroup != string(mode) {
				t.Fatalf("asked for cgroup %s, got %q", mode, s.Isolation().Cgroup)
			}
			bound := int64(1 << 30) // all processes together
			if mode == CgroupNone {
				bound = 2 << 30 // FallbackProcs × 2·MemoryBytes/FallbackProcs
			}
			t.Run("memory across processes", func(t *testing.T) { memoryAcrossProcesses(t, s, bound) })
			t.Run("memory limit kills the test process", func(t *testing.T) {
				if mode == CgroupNone {
					t.Skip("without a cgroup nothing bounds the sum of processes each under RLIMIT_AS")
				}
				memoryLimitKills(t, s)
			})
			t.Run("test processes go first", func(t *testing.T) {
				// The OOM killer is to pick a test process, not the harness.
				v := run(t, s, "print(open('/proc/self/oom_score_adj').read())", stdinSpec("", "1000"))
				if !v.Correct() {
					t.Errorf("got %+v", v)
				}
			})
			t.Run("large allocation", func(t *testing.T) { largeAllocation(t, s) })
			t.Run("fork bomb", func(t *testing.T) { forkBomb(t, s) })
			t.Run("daemon does not outlive its test", func(t *testing.T) { daemons(t, s) })
			t.Run("timeout kills forked children", func(t *testing.T) { timeoutKillsChildren(t, s) })
			if p := sandboxProcesses(s); len(p) != 0 {
				t.Errorf("processes of the sandbox user survive: %v", p)
			}
		})
	}
}

// memoryAcrossProcesses: twelve forked children each touch 400 MB and
// hold it until all are done; the program prints how many held it at the
// same time, which the bound caps.
func memoryAcrossProcesses(t *testing.T, s *Sandbox, bound int64) {
	const each = 400 << 20
	program := fmt.Sprintf(`import os
EACH = %d
ready_r, ready_w = os.pipe()
go_r, go_w = os.pipe()
kids = []
for _ in range(12):
    try:
        pid = os.fork()
    except OSError:
        continue
    if pid == 0:
        os.close(go_w)
        try:
            b = bytearray(EACH)
            b[::4096] = b"\x01" * (EACH // 4096)
        except MemoryError:
            os._exit(1)
        os.write(ready_w, b"r")
        os.read(go_r, 1)
        os._exit(0 if b[4096] == 1 else 1)
    kids.append(pid)
os.close(ready_w)
import select, time
deadline = time.time() + 2.5
while time.time() < deadline:
    select.select([ready_r], [], [], 0.1)
os.close(go_w)
held = 0
for pid in kids:
    _, st = os.waitpid(pid, 0)
    if os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0:
        held += 1
print(held)
`, each)
	v := run(t, s, program, stdinSpec("", "12"))
	if v.Correct() {
		t.Fatalf("all 12 children held 400 MB at once: %+v", v)
	}
	if v.Outcome == grading.OutcomeWrongAnswer {
		_, got, _ := strings.Cut(v.Detail, "got '")
		held, err := strconv.Atoi(strings.TrimSuffix(got, "'"))
		if err != nil {
			t.Fatalf("unexpected detail %q", v.Detail)
		}
		if int64(held)*each > bound {
			t.Errorf("%d children held 400 MB at once (%d MB), bound %d MB", held, held*400, bound>>20)
		}
		t.Logf("%d of 12 children held 400 MB at once", held)
	} else {
		t.Logf("the program failed: %+v", v)
	}
}

// memoryLimitKills: a test process that, with a child of its own, goes
// over the cgroup's memory limit is killed (it is the larger: the child
// forks before the parent allocates, so shares none of it), and the
// verdict says why.
func memoryLimitKills(t *testing.T, s *Sandbox) {
	program := `import os, time
def touch(n):
    b = bytearray(n)
    b[::4096] = b"\x01" * (n // 4096)
    return b
if os.fork() == 0:
    c = touch(300 << 20)
    time.sleep(5)
    os._exit(0)
time.sleep(0.3)
a = touch(600 << 20)
more = touch(300 << 20)
print("survived")
`
	v := run(t, s, program, stdinSpec("", "survived"))
	if v.Outcome != grading.OutcomeRuntimeError || !strings.Contains(v.Detail, "memory limit exceeded (1 GiB for all of the program's processes)") {
		t.Errorf("got %+v, want runtime_error: memory limit exceeded", v)
	}
}

func largeAllocation(t *testing.T, s *Sandbox) {
	cases := []struct {
		name, program string
		spec          *grading.CodeSpec
	}{
		{"one huge allocation", "x = bytearray(8 << 30)\nprint(len(x))", stdinSpec("", "1")},
		{"growing allocation", "chunks = []\nwhile True:\n    chunks.append(bytes(64 << 20))", stdinSpec("", "1")},
		{"functional", "class Solution:\n    def f(self, x):\n        return len(bytearray(8 << 30))", funcSpec("1", "1")},
	}
	for _, c := range cases {
		v := run(t, s, c.program, c.spec)
		if v.Outcome != grading.OutcomeRuntimeError || !strings.Contains(v.Detail, "MemoryError") {
			t.Errorf("%s: got %+v, want runtime_error MemoryError", c.name, v)
		}
	}
}

func forkBomb(t *testing.T, s *Sandbox) {
	start := time.Now()
	v := run(t, s, "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n", stdinSpec("", "1"))
	if v.Outcome != grading.OutcomeTimeout && v.Outcome != grading.OutcomeRuntimeError {
		t.Errorf("got %+v, want timeout or runtime_error", v)
	}
	if p := sandboxProcesses(s); len(p) != 0 {
		t.Errorf("processes of the sandbox user survive the fork bomb: %v", p)
	}
	t.Logf("fork bomb: %s after %v", v.Outcome, time.Since(start).Round(time.Millisecond))
	// The machine is fine: the next program runs normally.
	if v := run(t, s, "print(input())", stdinSpec("ok\n", "ok")); !v.Correct() {
		t.Errorf("after the fork bomb: %+v", v)
	}
}

// daemons: a double-forked, setsid'd daemon (an exec'd sleep carrying a
// marker) is dead once its test is over — both before the next test of
// the same program and after the program.
func daemons(t *testing.T, s *Sandbox) {
	marker := fmt.Sprintf("%d.%03d", 86000+uidSeq.Add(1), time.Now().UnixNano()%1000)
	program := `import os, sys, time
MARKER = "` + marker + `"
def running():
    for p in os.listdir("/proc"):
        try:
            if MARKER.encode() in open("/proc/%s/cmdline" % p, "rb").read():
                return True
        except OSError:
            pass
    return False
if input() == "start":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv("/bin/sleep", ["sleep", MARKER])
        os._exit(0)
    for _ in range(500):
        if running():
            break
        time.sleep(0.01)
    print("started" if running() else "not started")
else:
    print("still running" if running() else "gone")
`
	spec := &grading.CodeSpec{TestType: grading.TestStdin, Public: []grading.TestCase{
		{Input: "start\n", Output: "started"}, {Input: "check\n", Output: "gone"}}}
	if v := run(t, s, program, spec); !v.Correct() {
		t.Errorf("got %+v", v)
	}
	if pid := findCmdline("sleep\x00" + marker); pid > 0 {
		t.Errorf("the daemon %d outlived the program", pid)
	}
}

// timeoutKillsChildren: when a program times out, its detached children
// die with it.
func timeoutKillsChildren(t *testing.T, s *Sandbox) {
	marker := fmt.Sprintf("%d.%03d", 87000+uidSeq.Add(1), time.Now().UnixNano()%1000)
	program := "import os\nif os.fork() == 0:\n    os.setsid()\n    os.execv('/bin/sleep', ['sleep', '" + marker + "'])\nwhile True:\n    pass\n"
	seen := make(chan int, 1)
	stop := make(chan struct{})
	go func() {
		for {
			if pid := findCmdline("sleep\x00" + marker); pid > 0 {
				seen <- pid
				return
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	v := run(t, s, program, stdinSpec("", "1"))
	close(stop)
	if v.Outcome != grading.OutcomeTimeout {
		t.Errorf("got %+v, want timeout", v)
	}
	select {
	case pid := <-seen:
		if alive(pid) {
			t.Errorf("the forked child %d outlived the program", pid)
		}
	default:
		t.Errorf("the forked child was never seen running")
	}
	if pid := findCmdline("sleep\x00" + marker); pid > 0 {
		t.Errorf("the forked child %d outlived the program", pid)
	}
}
