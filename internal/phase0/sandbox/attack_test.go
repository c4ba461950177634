package sandbox

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

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
	s := newSandbox(t, Options{TestTimeout: 10 * time.Second})
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
	s := newSandbox(t, Options{TestTimeout: 2 * time.Second})
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
		{"kill the harness", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nprint('SECRET')", false, "harness ended"},
		{"stop the harness", "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\nprint('SECRET')", false, "time limit"},
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
