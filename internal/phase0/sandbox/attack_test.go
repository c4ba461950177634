package sandbox

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/triage-eval/triage/internal/phase0/grading"
)

// The attack suite: programs that try to pass without computing anything
// (verdict cheats). Each searches everywhere it might reach for the
// expected output, a secret no program can compute (SECRET and 12
// digits), and prints (or returns) what it found, else "nothing found".
// Against the sandbox each must fail, having found nothing. Each attack
// also has a positive control: the same code with a secret planted where
// it looks, which must then pass — so a broken attack cannot pass for a
// contained one.

// newSecret returns a fresh expected output no program can guess.
func newSecret(t *testing.T) string {
	n, err := rand.Int(rand.Reader, big.NewInt(1e12))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("SECRET%012d", n)
}

// plantedSecret is what the positive controls plant.
const plantedSecret = "SECRET000000000042"

// searchLib finds secrets in Python values and process memory. Its own
// source matches none (the pattern is written with a character class).
const searchLib = `import os, re, sys, gc, json
PAT = re.compile(r"SECRET[0-9]{12}")
BPAT = re.compile(rb"SECRET[0-9]{12}")
FOUND = []

def search(v, depth=0, seen=None):
    seen = set() if seen is None else seen
    if depth > 6 or id(v) in seen:
        return
    seen.add(id(v))
    if isinstance(v, str):
        FOUND.extend(PAT.findall(v))
    elif isinstance(v, (bytes, bytearray)):
        FOUND.extend(m.decode() for m in BPAT.findall(v))
    elif isinstance(v, dict):
        for k, x in list(v.items()):
            search(k, depth + 1, seen)
            search(x, depth + 1, seen)
    elif isinstance(v, (list, tuple, set, frozenset)):
        for x in list(v):
            search(x, depth + 1, seen)

def walk_frames():
    f = sys._getframe()
    while f is not None:
        search(f.f_locals)
        search(f.f_globals)
        f = f.f_back

def scan_gc():
    for o in gc.get_objects():
        search(o, 5)

def make_dumpable():
    # Test processes inherit the harness's undumpable flag, which hides
    # even their own /proc/self/mem: an attacker first turns it off.
    import ctypes
    ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)

def scan_memory(pid):
    try:
        with open("/proc/%s/maps" % pid) as maps, open("/proc/%s/mem" % pid, "rb", 0) as mem:
            for line in maps:
                addr, perms = line.split()[:2]
                if not perms.startswith("r"):
                    continue
                lo, hi = (int(x, 16) for x in addr.split("-"))
                try:
                    mem.seek(lo)
                    FOUND.extend(m.decode() for m in BPAT.findall(mem.read(hi - lo)))
                except (OSError, ValueError, OverflowError):
                    pass
    except OSError:
        pass

def scan_other_processes():
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) != os.getpid():
            scan_memory(p)

def answer():
    return FOUND[0] if FOUND else "nothing found"
`

// attack is one verdict cheat: program (which may use searchLib) is run
// against a test whose expected output is a fresh secret; control plants
// a secret where the attack looks (prepended to program).
type attack struct {
	name       string
	functional bool
	// search is the attack's statement(s), run at module level.
	search string
	// plant is the positive control's statement(s): search, with
	// plantedSecret put where it looks.
	plant string
}

// program assembles an attack's source: stdin programs print the answer,
// functional ones return it.
func (a attack) program(search string) string {
	if a.functional {
		return searchLib + "class Solution:\n    def f(self, *args):\n" + indent(search, 8) + "        return answer()\n"
	}
	return searchLib + search + "\nprint(answer())\n"
}

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(pad + l + "\n")
	}
	return b.String()
}

func (a attack) spec(expected string) *grading.CodeSpec {
	if a.functional {
		return &grading.CodeSpec{TestType: grading.TestFunctional, FuncName: "f",
			Public: []grading.TestCase{{Input: "1\n[2, 3]", Output: `"` + expected + `"`}}}
	}
	return stdinSpec("1 2 3\n", expected)
}

func TestVerdictCheatsFail(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	attacks := []attack{
		{name: "frame walk (stdin)", search: "walk_frames()",
			plant: "def holder():\n    expected = \"SECRET\" + \"000000000042\"\n    walk_frames()\nholder()"},
		{name: "frame walk (functional)", functional: true, search: "walk_frames()",
			plant: "expected = \"SECRET\" + \"000000000042\"\nwalk_frames()"},
		{name: "gc.get_objects scan (stdin)", search: "scan_gc()",
			plant: "KEEP = {\"output\": \"SECRET\" + \"000000000042\"}\nscan_gc()"},
		{name: "gc.get_objects scan (functional)", functional: true, search: "scan_gc()",
			plant: "KEEP = {\"output\": \"SECRET\" + \"000000000042\"}\nscan_gc()"},
		{name: "own memory scan (stdin)", search: "make_dumpable()\nscan_memory('self')",
			plant: "KEEP = \"SECRET\" + \"000000000042\"\nmake_dumpable()\nscan_memory('self')"},
		{name: "own memory scan (functional)", functional: true, search: "make_dumpable()\nscan_memory('self')",
			plant: "KEEP = \"SECRET\" + \"000000000042\"\nmake_dumpable()\nscan_memory('self')"},
		{
			// /proc/<pid>/mem of the harness (undumpable) and bwrap's PID
			// 1. The control makes itself dumpable again and scans a
			// child of its own holding a secret.
			name: "other processes' memory (/proc/<ppid>/mem)", search: "make_dumpable()\nscan_other_processes()",
			plant: "import time\nmake_dumpable()\nr, w = os.pipe()\nif os.fork() == 0:\n    KEEP = \"SECRET\" + \"000000000042\"\n    os.write(w, b'x')\n    time.sleep(30)\n    os._exit(0)\nos.read(r, 1)\nscan_other_processes()",
		},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			secret := newSecret(t)
			v := run(t, s, a.program(a.search), a.spec(secret))
			if v.Correct() || !strings.Contains(v.Detail, "nothing found") {
				t.Errorf("attack: got %s %q, want a failure having found nothing", v.Outcome, v.Detail)
			}
			v = run(t, s, a.program(a.plant), a.spec(plantedSecret))
			if !v.Correct() {
				t.Errorf("positive control (a planted secret) not found: %s %q: the attack does not work, so its failure above proves nothing", v.Outcome, v.Detail)
			}
		})
	}
}

// Programs that write forged reports (old and new formats) to every
// descriptor from 3 to 255, from module-level code, or that attack the
// harness directly, must fail; each reports how many descriptors it could
// write to, which must be none.
func TestForgedReportsFail(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	forge := `import os, json
fake = json.dumps({"ev": "result", "i": 0, "status": "exited", "code": 0, "stdout": "", "stderr": ""}).encode()
records = len(fake).to_bytes(4, "big") + fake + b'{"ev": "result", "i": 0, "status": "pass", "detail": ""}\nresult 0 pass\n'
WRITABLE = 0
for fd in range(3, 256):
    try:
        os.write(fd, records)
        WRITABLE += 1
    except OSError:
        pass
`
	cases := []struct {
		name, program string
		functional    bool
		detail        string // the failure must mention it
	}{
		{"fake records to fds 3..255 (stdin)", forge + "print('%d writable fds' % WRITABLE)", false, "0 writable fds"},
		{"fake records to fds 3..255 from module-level code (functional)", forge + "class Solution:\n    def f(self, *a):\n        return '%d writable fds' % WRITABLE", true, "0 writable fds"},
		{"fake records from inside the call (functional)", "class Solution:\n    def f(self, *a):\n" + indent(forge, 8) + "        return '%d writable fds' % WRITABLE", true, "0 writable fds"},
		{"only 0, 1 and 2 are open", "import os\ndef is_open(fd):\n    try:\n        os.fstat(fd)\n        return True\n    except OSError:\n        return False\nprint([fd for fd in range(4096) if is_open(fd)])", false, "got '[0, 1, 2]'"},
		// The harness is the sandbox's PID 1, which receives no signal from
		// a test process: the program goes on, and its output is judged.
		{"kill the harness", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nprint('SECRET')", false, "got 'SECRET'"},
		{"stop the harness", "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\nprint('SECRET')", false, "got 'SECRET'"},
		{"object equal to everything", "class Any:\n    def __eq__(self, o): return True\n    def __ne__(self, o): return False\nclass Solution:\n    def f(self, *a):\n        return Any()", true, "type Any"},
		{"list subclass equal to everything", "class L(list):\n    def __eq__(self, o): return True\nclass Solution:\n    def f(self, *a):\n        return L()", true, "got '[]'"},
		{"int subclass equal to everything", "class I(int):\n    def __eq__(self, o): return True\nclass Solution:\n    def f(self, *a):\n        return I(5)", true, "got '5'"},
		{"forged result document", "import os\nclass Solution:\n    def f(self, *a):\n        os.write(1, b'{\"result\": \"pass\", \"status\": \"pass\"}')\n        os._exit(0)", true, "malformed result"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			secret := newSecret(t)
			spec := stdinSpec("1\n", secret)
			if c.functional {
				spec = funcSpec("1", `"`+secret+`"`)
			}
			v := run(t, s, c.program, spec)
			if v.Correct() || !strings.Contains(v.Detail, c.detail) {
				t.Errorf("got %s %q, want a failure mentioning %q", v.Outcome, v.Detail, c.detail)
			}
		})
	}
	// The descriptor count works: a program that opens one itself sees it.
	v := run(t, s, "import os\nos.open('/dev/null', os.O_WRONLY)\n"+forge+"print('%d writable fds' % WRITABLE)", stdinSpec("", "1 writable fds"))
	if !v.Correct() {
		t.Errorf("positive control: %+v", v)
	}
}

// Reading the harness's memory, descriptors or environment, or tracing it,
// is refused: it is undumpable.
func TestHarnessIsUndumpable(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	program := `import ctypes, os
ppid = os.getppid()
res = []
for what in ("mem", "environ", "maps"):
    try:
        with open("/proc/%d/%s" % (ppid, what), "rb") as f:
            f.read(1)
        res.append(what + ":readable")
    except PermissionError:
        res.append(what + ":denied")
try:
    os.listdir("/proc/%d/fd" % ppid)
    res.append("fd:listed")
except PermissionError:
    res.append("fd:denied")
libc = ctypes.CDLL(None, use_errno=True)
if libc.ptrace(16, ppid, 0, 0) == 0:  # PTRACE_ATTACH
    res.append("ptrace:attached")
else:
    res.append("ptrace:errno%d" % ctypes.get_errno())
print(" ".join(res))
`
	want := "mem:denied environ:denied maps:denied fd:denied ptrace:errno1"
	if v := run(t, s, program, stdinSpec("", want)); !v.Correct() {
		t.Errorf("got %+v", v)
	}
}

// The sandbox's PID 1 (its init, which reaps orphans) is no way out of the
// limits: every process in the sandbox carries the program's rlimits, and
// no test process can trace, signal or replace PID 1 (or any other process
// it did not start). Against the earlier sandbox, whose PID 1 was
// bubblewrap's own init (the program's uid, dumpable, no rlimits), a test
// process seized it with ptrace and made it execve a payload that forked
// 100 processes against RLIMIT_NPROC 8, mapped 3 GiB against RLIMIT_AS
// 256 MiB and outlived the kill between tests.
func TestInitIsNoWayOut(t *testing.T) {
	t.Parallel()
	for _, mode := range cgroupModes(t) {
		t.Run("cgroup="+string(mode), func(t *testing.T) {
			s := newSandbox(t, Options{Cgroup: mode})
			t.Run("every process carries the limits", func(t *testing.T) { everyProcessLimited(t, s) })
			t.Run("PID 1 cannot be traced", func(t *testing.T) { initNotTraceable(t, s) })
			t.Run("PID 1 ignores signals", func(t *testing.T) { initIgnoresSignals(t, s) })
			t.Run("PID 1 cannot be made to run a payload", func(t *testing.T) { initHijack(t, s) })
		})
	}
}

// everyProcessLimited: a test process reads /proc/<pid>/limits of every
// process it can see (PID 1 among them) and compares them with the
// program's limits, which it gets as input.
func everyProcessLimited(t *testing.T, s *Sandbox) {
	program := `import os
want = dict(zip(("Max address space", "Max processes", "Max open files", "Max core file size"), input().split()))
cpu_max = int(input())
bad, seen = [], 0
for p in sorted(os.listdir("/proc")):
    if not p.isdigit():
        continue
    try:
        lines = open("/proc/%s/limits" % p).read().splitlines()
    except OSError:
        continue
    seen += 1
    for line in lines[1:]:
        name = line[:26].strip()
        soft = line[26:47].strip()
        if name in want and soft != want[name]:
            bad.append("pid %s: %s %s" % (p, name, soft))
        if name == "Max cpu time" and (soft == "unlimited" or int(soft) > cpu_max):
            bad.append("pid %s: %s %s" % (p, name, soft))
print("; ".join(bad) if bad else "processes seen: %d, all limited" % seen)
`
	l := s.lim
	input := fmt.Sprintf("%d %d %d 0\n%d\n", l.addressSpace, l.procs, l.files, l.cpuSeconds)
	// PID 1 and the test process itself at least.
	v := run(t, s, program, stdinSpec(input, "processes seen: 2, all limited"))
	if !v.Correct() {
		t.Errorf("got %s %q, want every process under the limits", v.Outcome, v.Detail)
	}
}

// initNotTraceable: PTRACE_SEIZE and PTRACE_ATTACH of PID 1 (and of the
// test process's parent) are refused, and PID 1's memory cannot be opened.
func initNotTraceable(t *testing.T, s *Sandbox) {
	program := `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.syscall.argtypes = [ctypes.c_long] * 5
res = []
for pid in sorted({1, os.getppid()}):
    for name, req in (("seize", 0x4206), ("attach", 16)):
        if libc.syscall(101, req, pid, 0, 0) == 0:
            res.append("%s %d: traced" % (name, pid))
    for f in ("mem", "environ"):
        try:
            open("/proc/%d/%s" % (pid, f), "rb").read(1)
            res.append("%s %d: readable" % (f, pid))
        except OSError:
            pass
print("; ".join(res) or "refused")
`
	if v := run(t, s, program, stdinSpec("", "refused")); !v.Correct() {
		t.Errorf("got %s %q", v.Outcome, v.Detail)
	}
}

// initIgnoresSignals: the first test sends every catchable and
// uncatchable signal to PID 1 and to its own parent; the second test
// still runs, and the verdict is the program's.
func initIgnoresSignals(t *testing.T, s *Sandbox) {
	program := `import os, signal
if input() == "signal":
    for sig in (signal.SIGSTOP, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT,
                signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGPIPE, signal.SIGKILL):
        for pid in sorted({1, os.getppid()}):
            try:
                os.kill(pid, sig)
            except OSError:
                pass
    print("sent")
else:
    print("alive")
`
	spec := &grading.CodeSpec{TestType: grading.TestStdin, Public: []grading.TestCase{
		{Input: "signal\n", Output: "sent"}, {Input: "check\n", Output: "alive"}}}
	if v := run(t, s, program, spec); !v.Correct() {
		t.Errorf("got %s %q, want both tests run", v.Outcome, v.Detail)
	}
}

// hijackLib seizes a process with ptrace and makes it execve argv: it
// writes the strings below the process's stack pointer, a syscall
// instruction where it stands, and sets the registers for execve.
const hijackLib = `import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.syscall.argtypes = [ctypes.c_long] * 5
SEIZE, INTERRUPT, GETREGS, SETREGS, POKEDATA, DETACH = 0x4206, 0x4207, 12, 13, 5, 17

class Regs(ctypes.Structure):
    _fields_ = [(n, ctypes.c_ulonglong) for n in
                "r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi orig_rax rip cs eflags rsp ss fs_base gs_base ds es fs gs".split()]

def ptrace(req, pid, addr=0, data=0):
    if libc.syscall(101, req, pid, addr, data) == -1:
        raise OSError(ctypes.get_errno(), "ptrace(%#x)" % req)

def word(b):
    return int.from_bytes(b, "little", signed=True)

def hijack(pid, argv):
    ptrace(SEIZE, pid)
    ptrace(INTERRUPT, pid)
    os.waitpid(pid, 0x40000000)  # __WALL
    regs = Regs()
    ptrace(GETREGS, pid, 0, ctypes.addressof(regs))
    base = (regs.rsp - 8192) & ~15
    blob, ptrs = b"", []
    for a in argv:
        ptrs.append(base + len(blob))
        blob += a.encode() + b"\0"
    blob += bytes(-len(blob) % 8)
    argv_at = base + len(blob)
    blob += b"".join(p.to_bytes(8, "little") for p in ptrs) + bytes(8)
    for off in range(0, len(blob), 8):
        ptrace(POKEDATA, pid, base + off, word(blob[off:off + 8]))
    ptrace(POKEDATA, pid, regs.rip, word(b"\x0f\x05" + bytes(6)))  # syscall
    regs.rax, regs.orig_rax = 59, (1 << 64) - 1  # execve, no syscall restart
    regs.rdi, regs.rsi, regs.rdx = ptrs[0], argv_at, argv_at + 8 * len(argv)
    ptrace(SETREGS, pid, 0, ctypes.addressof(regs))
    ptrace(DETACH, pid)
`

// hijackPayload is what a hijacked process runs: it forks up to 100
// processes and maps 3 GiB (without touching it), writes what it managed
// to report, then stays.
const hijackPayload = `import mmap, os, sys, time
report, forks = sys.argv[1], int(sys.argv[2])
n = 0
for _ in range(forks):
    try:
        if os.fork() == 0:
            time.sleep(120)
            os._exit(0)
        n += 1
    except OSError:
        break
try:
    m = mmap.mmap(-1, 3 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x4000)  # MAP_NORESERVE
    mapped = "mapped 3 GiB"
except (OSError, MemoryError, OverflowError):
    mapped = "could not map 3 GiB"
with open(report + ".tmp", "w") as f:
    f.write("forked %d, %s" % (n, mapped))
os.rename(report + ".tmp", report)
time.sleep(120)
`

// initHijack: the attack itself. The test process tries to make PID 1 run
// hijackPayload; it reports what the payload managed, or that PID 1 could
// not be seized.
func initHijack(t *testing.T, s *Sandbox) {
	program := hijackLib + "PAYLOAD = " + strconv.Quote(hijackPayload) + `
report = "/tmp/pid1-report"
try:
    hijack(1, [sys.executable, "-c", PAYLOAD, report, "100"])
except OSError as e:
    print("seize refused (%s)" % os.strerror(e.errno))
    sys.exit(0)
for _ in range(6000):
    if os.path.exists(report):
        break
    time.sleep(0.01)
print("PID 1 " + (open(report).read() if os.path.exists(report) else "hijacked, no report"))
`
	v := run(t, s, program, stdinSpec("", "seize refused (Operation not permitted)"))
	if !v.Correct() {
		t.Errorf("got %s %q, want PTRACE_SEIZE of PID 1 refused", v.Outcome, v.Detail)
	}
}

// The hijack works where ptrace is allowed: on the host, against a child
// of its own (a positive control, so that a broken attack cannot pass for
// a contained one).
func TestHijackWorksOutsideTheSandbox(t *testing.T) {
	t.Parallel()
	py, _ := candidates("")
	if len(py) == 0 {
		t.Fatal("python3 is not installed")
	}
	report := filepath.Join(t.TempDir(), "report")
	program := hijackLib + "PAYLOAD = " + strconv.Quote(hijackPayload) + `
victim = os.fork()
if victim == 0:
    while True:
        time.sleep(1)
time.sleep(0.2)
try:
    hijack(victim, [sys.executable, "-c", PAYLOAD, sys.argv[1], "3"])
except OSError as e:
    print("seize failed: %s" % e, flush=True)
for _ in range(60000):
    if os.path.exists(sys.argv[1]):
        break
    time.sleep(0.01)
print(open(sys.argv[1]).read() if os.path.exists(sys.argv[1]) else "no report", flush=True)
os.killpg(0, 9)
`
	cmd := exec.Command(py[0], "-c", program, report)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, _ := cmd.Output()
	if got := strings.TrimSpace(string(out)); got != "forked 3, mapped 3 GiB" {
		t.Errorf("the hijack outside the sandbox printed %q, want the payload's report", got)
	}
}
