package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

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
//
// Only the attacks that end by a time limit (the fork bomb, a program
// that never ends) run with a short one; every other attack runs with
// limits far above the time it needs, so that on a loaded machine the
// memory limit, not the clock, decides its outcome.
func TestResourceLimits(t *testing.T) {
	t.Parallel()
	for _, mode := range cgroupModes(t) {
		t.Run("cgroup="+string(mode), func(t *testing.T) {
			s := newSandbox(t, Options{Cgroup: mode})
			timed := newSandbox(t, Options{Cgroup: mode, TestTimeout: 3 * time.Second, TotalTimeout: 5 * time.Minute})
			slowTimed := newSandbox(t, Options{Cgroup: mode, TestTimeout: 10 * time.Second, TotalTimeout: 5 * time.Minute})
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
				// The OOM killer is to pick a test process, then the
				// harness (PID 1), before the process running the sandbox.
				v := run(t, s, "print(open('/proc/self/oom_score_adj').read().strip(), open('/proc/1/oom_score_adj').read().strip())", stdinSpec("", "1000 500"))
				if !v.Correct() {
					t.Errorf("got %+v", v)
				}
			})
			t.Run("large allocation", func(t *testing.T) { largeAllocation(t, s) })
			t.Run("fork bomb", func(t *testing.T) { forkBomb(t, timed) })
			t.Run("daemon does not outlive its test", func(t *testing.T) { daemons(t, s) })
			t.Run("timeout kills forked children", func(t *testing.T) { timeoutKillsChildren(t, slowTimed) })
			for _, s := range []*Sandbox{s, timed, slowTimed} {
				if p := sandboxProcesses(s); len(p) != 0 {
					t.Errorf("processes of the sandbox user survive: %v", p)
				}
			}
		})
	}
}

// memoryAcrossProcesses: twelve forked children each touch 400 MB and
// hold it until all are done; the program prints how many held it at the
// same time, which the bound caps. It waits for each child to report or
// die, however long that takes.
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
        os.write(ready_w, os.getpid().to_bytes(4, "little"))
        os.read(go_r, 1)
        os._exit(0 if b[4096] == 1 else 1)
    kids.append(pid)
os.close(ready_w)
# Each child either reports (it holds its memory) or dies (killed, or
# MemoryError): wait until every one has done either.
import select
ready, status = set(), {}
while len(ready | set(status)) < len(kids):
    pid, st = os.waitpid(-1, os.WNOHANG)
    if pid:
        status[pid] = st
    elif select.select([ready_r], [], [], 0.01)[0]:
        data = os.read(ready_r, 4096)
        ready |= {int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)}
os.close(go_w)
for pid in kids:
    if pid not in status:
        status[pid] = os.waitpid(pid, 0)[1]
held = sum(1 for st in status.values() if os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0)
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
// forks before the parent allocates, so shares none of it, and holds its
// 300 MB before the parent starts), and the verdict says why. The time
// limit is far above what this takes, so only the memory limit can end
// it.
func memoryLimitKills(t *testing.T, s *Sandbox) {
	program := `import os, time
def touch(n):
    b = bytearray(n)
    b[::4096] = b"\x01" * (n // 4096)
    return b
r, w = os.pipe()
if os.fork() == 0:
    c = touch(300 << 20)
    os.write(w, b"x")
    time.sleep(3600)
    os._exit(0)
os.read(r, 1)
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

// daemons: a double-forked, setsid'd daemon (an exec'd interpreter carrying a
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
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", MARKER])
        os._exit(0)
    while not running():  # the test's time limit catches a hang
        time.sleep(0.01)
    print("started")
else:
    print("still running" if running() else "gone")
`
	spec := &grading.CodeSpec{TestType: grading.TestStdin, Public: []grading.TestCase{
		{Input: "start\n", Output: "started"}, {Input: "check\n", Output: "gone"}}}
	if v := run(t, s, program, spec); !v.Correct() {
		t.Errorf("got %+v", v)
	}
	if pid := findCmdline("\x00" + marker); pid > 0 {
		t.Errorf("the daemon %d outlived the program", pid)
	}
}

// timeoutKillsChildren: when a program times out, its detached children
// die with it. The program waits for its child to run, then sleeps until
// its time limit, which is far above the time the child takes to start
// and this test to see it.
func timeoutKillsChildren(t *testing.T, s *Sandbox) {
	marker := fmt.Sprintf("%d.%03d", 87000+uidSeq.Add(1), time.Now().UnixNano()%1000)
	program := `import os, sys, time
MARKER = "` + marker + `"
pid = os.fork()
if pid == 0:
    os.setsid()
    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", MARKER])
while MARKER.encode() not in open("/proc/%d/cmdline" % pid, "rb").read():
    time.sleep(0.01)
time.sleep(3600)
`
	seen := make(chan int, 1)
	stop := make(chan struct{})
	go func() {
		for {
			if pid := findCmdline("\x00" + marker); pid > 0 {
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
	if pid := findCmdline("\x00" + marker); pid > 0 {
		t.Errorf("the forked child %d outlived the program", pid)
	}
}

// sharedMemoryProgram tries every kind of memory that no RLIMIT_AS weighs
// or that outlives the program's processes: SysV shared memory, POSIX
// shared memory (/dev/shm), a memfd, the writable /tmp, and a shared
// mapping larger than the address-space limit (given as input).
const sharedMemoryProgram = `import ctypes, mmap, os
libc = ctypes.CDLL(None, use_errno=True)
res = []
ident = libc.shmget(0, 1 << 20, 0o1600)
res.append("sysv " + ("segment created" if ident >= 0 else os.strerror(ctypes.get_errno())))
try:
    from multiprocessing import shared_memory
    shared_memory.SharedMemory(create=True, size=1 << 20).unlink()
    res.append("posix shm created")
except OSError as e:
    res.append("posix shm " + type(e).__name__)
try:
    os.close(os.memfd_create("x"))
    res.append("memfd created")
except OSError as e:
    res.append("memfd " + os.strerror(e.errno))
written = 0
try:
    with open("/tmp/fill", "wb") as f:
        while written <= 1 << 30:
            f.write(bytes(1 << 20))
            f.flush()
            written += 1 << 20
    res.append("/tmp took 1 GiB")
except OSError:
    res.append("/tmp full" if written <= 64 << 20 else "/tmp took %d MiB" % (written >> 20))
try:
    mmap.mmap(-1, int(input()) + (1 << 20), flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
    res.append("shared mapping beyond RLIMIT_AS")
except (OSError, MemoryError):
    res.append("shared mapping bounded")
print("; ".join(res))
`

// TestSharedMemoryBounded: memory a program could hold outside every
// process's RLIMIT_AS, or after its processes are gone, is refused or
// bounded, with a cgroup and without.
func TestSharedMemoryBounded(t *testing.T) {
	t.Parallel()
	for _, mode := range cgroupModes(t) {
		t.Run("cgroup="+string(mode), func(t *testing.T) {
			s := newSandbox(t, Options{Cgroup: mode})
			want := "sysv Operation not permitted; posix shm FileNotFoundError; memfd Operation not permitted; /tmp full; shared mapping bounded"
			v := run(t, s, sharedMemoryProgram, stdinSpec(fmt.Sprintf("%d\n", s.lim.addressSpace), want))
			if !v.Correct() {
				t.Errorf("got %s %q", v.Outcome, v.Detail)
			}
		})
	}
}

// memoryAttack freezes its harness (through its parent), then fills
// memory that no process holds, SysV shared memory segment by segment,
// then, should that be refused, ordinary memory in as many processes as
// it may fork, and ends. Against the earlier sandbox in rlimits-only mode
// (a harness it could stop, SysV segments it could create), the memory
// stayed full until Go's time limit, and the kernel killed the process
// running the sandbox (2 times out of 3 in the audit).
const memoryAttack = `import ctypes, os, signal, time
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.shmdt.argtypes = [ctypes.c_void_p]
os.kill(os.getppid(), signal.SIGSTOP)
CHUNK = 32 << 20
segments = 0
while segments < 64:
    ident = libc.shmget(0, CHUNK, 0o1600)
    if ident < 0:
        break
    at = libc.shmat(ident, None, 0)
    ctypes.memset(at, 1, CHUNK)
    libc.shmdt(at)
    segments += 1
print("segments", segments, flush=True)
r, w = os.pipe()
kids = 0
for _ in range(8):
    try:
        if os.fork() == 0:
            b = bytearray(200 << 20)
            for i in range(0, len(b), 4096):
                b[i] = 1
            os.write(w, b"x")
            time.sleep(30)
            os._exit(0)
        kids += 1
    except OSError:
        break
os.close(w)
held = 0
deadline = time.time() + 10
while time.time() < deadline and held < kids:
    if not os.read(r, 1):
        break
    held += 1
print("processes", kids, "held 200 MiB", held)
`

// TestServerSurvivesMemoryAttack runs memoryAttack in a stand-in for the
// server (this test binary, run again as a child) inside a 512 MiB memory
// cgroup, with the sandbox in rlimits-only mode. The stand-in starts with
// oom_score_adj 300 (as a service manager may give it) and keeps mapping
// fresh memory while the attack runs, as a server keeps serving. It must
// survive and grade a program after.
func TestServerSurvivesMemoryAttack(t *testing.T) {
	if dir := os.Getenv("TRIAGE_SANDBOX_STANDIN_CGROUP"); dir != "" {
		standIn(t, dir)
		return
	}
	t.Parallel()
	if os.Geteuid() != 0 || !cgroupsUsable(t, CgroupV1) {
		t.Skip("needs root and a writable cgroup v1 memory controller, to make a memory-limited cgroup")
	}
	c, _, err := findCgroups(CgroupV1, "", cgroupLimits{memory: 512 << 20, pids: 1000})
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.create()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := g.kill(10 * time.Second); err != nil {
			t.Error(err)
		}
		if err := g.remove(); err != nil {
			t.Error(err)
		}
	}()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServerSurvivesMemoryAttack$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "TRIAGE_SANDBOX_STANDIN_CGROUP="+g.memDir)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(5 * time.Minute): // a hang, not slowness
		cmd.Process.Kill()
		err = <-done
	}
	t.Logf("stand-in:\n%s", out.String())
	t.Logf("the cgroup's OOM kills: %d", g.oomKills())
	if err != nil || !strings.Contains(out.String(), "stand-in survived") {
		t.Fatalf("the stand-in server did not survive the attack: %v", err)
	}
}

// standIn is TestServerSurvivesMemoryAttack's child: it moves itself into
// the memory cgroup dir, then plays the server.
func standIn(t *testing.T, dir string) {
	if err := writeFile(filepath.Join(dir, "cgroup.procs"), strconv.Itoa(os.Getpid())); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(oomScoreFile, "300"); err != nil {
		t.Fatal(err)
	}
	// The attack's verdict is not what this checks: 20s (main's sandbox
	// let it stop its harness, so only this limit ended it) is far above
	// what it and the program after it need.
	s := newSandbox(t, Options{Cgroup: CgroupNone, UID: 1_970_000_000, TestTimeout: 20 * time.Second})
	// New lowered it: to -500 with CAP_SYS_RESOURCE, else to 0 (the
	// lowest an unprivileged process may go back to).
	iso := s.Isolation()
	t.Logf("%s", iso.OOM)
	want := 0
	if hasCapability(t, unix.CAP_SYS_RESOURCE) {
		want = serverOOMScoreAdj
	}
	if b, _ := os.ReadFile(oomScoreFile); strings.TrimSpace(string(b)) != strconv.Itoa(want) || iso.OOMScoreAdj != want || iso.ServerOOMAtRisk() {
		t.Errorf("oom_score_adj %s, Isolation says %d, want %d", b, iso.OOMScoreAdj, want)
	}
	usage := func() int64 {
		b, _ := os.ReadFile(filepath.Join(dir, "memory.usage_in_bytes"))
		n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		return n
	}
	verdict := make(chan grading.Verdict, 1)
	go func() { verdict <- run(t, s, memoryAttack, stdinSpec("", "1")) }()
	// Meanwhile the server goes on working: every 10 ms it maps and
	// touches 8 MiB of fresh memory and unmaps what it mapped 80 ms ago.
	var v grading.Verdict
	var peak int64
	var held [][]byte
	for tick := time.NewTicker(10 * time.Millisecond); v.Outcome == ""; {
		select {
		case v = <-verdict:
			tick.Stop()
		case <-tick.C:
			m, err := unix.Mmap(-1, 0, 8<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < len(m); i += 4096 {
				m[i] = 1
			}
			if held = append(held, m); len(held) > 8 {
				unix.Munmap(held[0])
				held = held[1:]
			}
			peak = max(peak, usage())
		}
	}
	t.Logf("attack: %s %q; the cgroup's peak usage seen %d MiB", v.Outcome, v.Detail, peak>>20)
	if v := run(t, s, "print(input())", stdinSpec("ok\n", "ok")); !v.Correct() {
		t.Fatalf("after the attack: %+v", v)
	}
	fmt.Println("stand-in survived")
}

// hasCapability reports whether this process has capability c in effect.
func hasCapability(t *testing.T, c int) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
			caps, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			return caps&(1<<c) != 0
		}
	}
	t.Fatal("no CapEff in /proc/self/status")
	return false
}
