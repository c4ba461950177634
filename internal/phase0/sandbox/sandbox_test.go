package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/sandbox/sandboxtest"
)

type lcbProblem struct {
	ID   string
	Spec grading.CodeSpec
}

// loadLCB reads the committed LiveCodeBench sample (native schema: the test
// cases and metadata are JSON strings).
func loadLCB(t testing.TB) []lcbProblem {
	t.Helper()
	path := benchdata.Path(t, "lcb/lcb_sample.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []lcbProblem
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var rec struct {
			ID          string `json:"question_id"`
			Starter     string `json:"starter_code"`
			PublicTests string `json:"public_test_cases"`
			Metadata    string `json:"metadata"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		var tests []struct {
			Input    string `json:"input"`
			Output   string `json:"output"`
			TestType string `json:"testtype"`
		}
		if err := json.Unmarshal([]byte(rec.PublicTests), &tests); err != nil || len(tests) == 0 {
			t.Fatalf("%s:%d: public_test_cases: %v", path, n, err)
		}
		var meta struct {
			FuncName string `json:"func_name"`
		}
		if rec.Metadata != "" {
			if err := json.Unmarshal([]byte(rec.Metadata), &meta); err != nil {
				t.Fatalf("%s:%d: metadata: %v", path, n, err)
			}
		}
		p := lcbProblem{ID: rec.ID, Spec: grading.CodeSpec{
			TestType:    grading.TestType(tests[0].TestType),
			FuncName:    meta.FuncName,
			StarterCode: rec.Starter,
		}}
		for _, tc := range tests {
			p.Spec.Public = append(p.Spec.Public, grading.TestCase{Input: tc.Input, Output: tc.Output})
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var uidSeq atomic.Int64

// newSandbox makes a sandbox with its own host uid (so that counting the
// sandbox's processes is not confused by other tests) and, unless opts
// sets them, time limits far above what any test's program needs (2
// minutes a test, 10 a program): a test about time sets its own, and no
// other verdict may turn into a timeout on a loaded machine. bubblewrap
// and python3 are system dependencies of code grading (CI installs both):
// a machine without them fails here, with New's explanation.
func newSandbox(t testing.TB, opts Options) *Sandbox {
	t.Helper()
	if opts.UID == 0 {
		opts.UID = 1_960_000_000 + int(uidSeq.Add(1))
	}
	if opts.TestTimeout == 0 {
		opts.TestTimeout = 2 * time.Minute
	}
	if opts.TotalTimeout == 0 {
		opts.TotalTimeout = 10 * time.Minute
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if left := leftoverCgroups(s); len(left) > 0 {
			t.Errorf("cgroups left behind: %v", left)
		}
	})
	return s
}

func stdinSpec(input, output string) *grading.CodeSpec {
	return &grading.CodeSpec{TestType: grading.TestStdin, Public: []grading.TestCase{{Input: input, Output: output}}}
}

func funcSpec(input, output string) *grading.CodeSpec {
	return &grading.CodeSpec{TestType: grading.TestFunctional, FuncName: "f", Public: []grading.TestCase{{Input: input, Output: output}}}
}

func run(t *testing.T, s *Sandbox, program string, c *grading.CodeSpec) grading.Verdict {
	t.Helper()
	v, err := s.RunTests(context.Background(), program, c)
	if err != nil {
		t.Fatalf("RunTests: %v", err)
	}
	return v
}

// sandboxProcesses lists the live processes of the sandbox's host uid
// (as root; without root the sandbox shares the caller's uid and the
// tests rely on markers instead).
func sandboxProcesses(s *Sandbox) []int {
	if !s.root {
		return nil
	}
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		status, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		var uid int
		zombie := false
		for _, line := range strings.Split(string(status), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[0] == "Uid:" {
				fmt.Sscan(f[1], &uid)
			}
			if len(f) >= 2 && f[0] == "State:" && f[1] == "Z" {
				zombie = true
			}
		}
		if uid == s.opts.UID && !zombie {
			var pid int
			fmt.Sscan(e.Name(), &pid)
			pids = append(pids, pid)
		}
	}
	return pids
}

// leftoverCgroups lists the cgroups of s that still exist.
func leftoverCgroups(s *Sandbox) []string {
	if s.cg == nil {
		return nil
	}
	var left []string
	for _, parent := range s.cg.parents {
		matches, _ := filepath.Glob(filepath.Join(parent, s.cg.prefix+"-*"))
		left = append(left, matches...)
	}
	return left
}

// findCmdline returns the pid of a process whose command line contains
// want, or 0.
func findCmdline(want string) int {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(b), want) {
			var pid int
			fmt.Sscan(e.Name(), &pid)
			if pid > 0 && pid != os.Getpid() && alive(pid) {
				return pid
			}
		}
	}
	return 0
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(b), ") Z ")
}

func TestNewFailsWithoutBubblewrap(t *testing.T) {
	_, err := New(Options{Bubblewrap: "/nonexistent/bwrap"})
	if err == nil || !strings.Contains(err.Error(), "install bubblewrap") || !strings.Contains(err.Error(), "/nonexistent/bwrap") {
		t.Fatalf("New without bubblewrap: err = %v, want one saying to install bubblewrap", err)
	}
}

func TestNewFailsWithoutPython(t *testing.T) {
	_, err := New(Options{Python: "/nonexistent/python3"})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/python3") {
		t.Fatalf("New with a missing interpreter: err = %v", err)
	}
}

func TestIsolationReport(t *testing.T) {
	s := newSandbox(t, Options{})
	iso := s.Isolation()
	t.Logf("isolation: %s", iso)
	if !strings.HasPrefix(iso.PythonVersion, "3.") || !strings.Contains(iso.Bubblewrap, "bubblewrap") {
		t.Errorf("interpreter or bubblewrap not reported: %+v", iso)
	}
	if iso.Checks != "uid 1000, undumpable true, no_new_privs true, capabilities 0000000000000000/0000000000000000/0000000000000000, pid 1, seccomp mode 2" {
		t.Errorf("checks: %s", iso.Checks)
	}
	if os.Geteuid() == 0 && (iso.HostUID == 0 || iso.HostUID != s.opts.UID) {
		t.Errorf("as root the sandbox must map to the unprivileged uid %d, reports %d", s.opts.UID, iso.HostUID)
	}
	want := "rlimits only"
	if iso.Cgroup != "" {
		want = "cgroup " + iso.Cgroup + ": 1 GiB for all of a program's processes together"
	}
	if !strings.HasPrefix(iso.Memory, want) {
		t.Errorf("memory %q, want it to start with %q", iso.Memory, want)
	}
	if cgroupsUsable(t, CgroupAuto) && iso.Cgroup == "" {
		t.Errorf("a cgroup is usable here but the sandbox does not use it: %s", iso)
	}
}

// cgroupsUsable reports whether the cgroups mode asks for can be used
// here.
func cgroupsUsable(t *testing.T, mode CgroupMode) bool {
	t.Helper()
	c, _, err := findCgroups(mode, "", cgroupLimits{memory: 1 << 30, pids: 40, cpus: 1})
	return err == nil && c != nil
}

func TestLCBCorrectSolutionsPass(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	probs := loadLCB(t)
	solutions := sandboxtest.LCBSolutions()
	var stdin, functional int
	var wg sync.WaitGroup
	for _, p := range probs {
		prog, ok := solutions[p.ID]
		if !ok {
			t.Errorf("no solution for %s", p.ID)
			continue
		}
		if p.Spec.TestType == grading.TestStdin {
			stdin++
		} else {
			functional++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := s.RunTests(context.Background(), prog, &p.Spec)
			if err != nil || v.Outcome != grading.OutcomeCorrect {
				t.Errorf("%s (%s): %v %+v", p.ID, p.Spec.TestType, err, v)
			}
		}()
	}
	wg.Wait()
	if stdin < 2 || functional < 2 {
		t.Errorf("want at least 2 stdin and 2 functional problems, got %d and %d", stdin, functional)
	}
}

func TestLCBWrongSolutionsFail(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	byID := map[string]lcbProblem{}
	for _, p := range loadLCB(t) {
		byID[p.ID] = p
	}
	want := map[string]string{
		"2727":   "test 1 of 2 (public): expected '2', got '3'",
		"2754":   "test 2 of 2 (public): expected '20', got '80'",
		"1899_A": "test 1 of 1 (public): line 2: expected 'Second', got 'First'",
		"1873_B": "test 1 of 1 (public): line 1: expected '16', got '12'",
	}
	for id, prog := range sandboxtest.LCBWrongSolutions() {
		p := byID[id]
		v := run(t, s, prog, &p.Spec)
		if v.Outcome != grading.OutcomeWrongAnswer || v.Detail != want[id] {
			t.Errorf("%s: got %s %q, want wrong_answer %q", id, v.Outcome, v.Detail, want[id])
		}
	}
}

func TestPrivateTestsRunAfterPublic(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	c := &grading.CodeSpec{
		TestType: grading.TestFunctional, FuncName: "f",
		Public:  []grading.TestCase{{Input: "1", Output: "2"}, {Input: "2", Output: "4"}},
		Private: []grading.TestCase{{Input: "3", Output: "6"}, {Input: "-4", Output: "-8"}, {Input: "5", Output: "10"}},
	}
	v := run(t, s, "class Solution:\n    def f(self, x):\n        return 2 * x if x > 0 else 0\n", c)
	if v.Outcome != grading.OutcomeWrongAnswer || v.Detail != "test 4 of 5 (private): expected '-8', got '0'" {
		t.Errorf("got %+v", v)
	}
	v = run(t, s, "class Solution:\n    def f(self, x):\n        return 2 * x\n", c)
	if v.Outcome != grading.OutcomeCorrect || v.Detail != "passed 5 of 5 tests" {
		t.Errorf("got %+v", v)
	}
}

func TestStdinComparison(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	cases := []struct {
		name, program, output string
		want                  grading.Outcome
	}{
		{"trailing spaces and blank lines", `print("1 2 ")` + "\n" + `print("3")` + "\n" + `print()`, "1 2\n3\n", grading.OutcomeCorrect},
		{"leading blank line", `print(); print("5")`, "5", grading.OutcomeCorrect},
		{"CRLF output", `import sys; sys.stdout.write("a\r\nb\r\n")`, "a\nb\n", grading.OutcomeCorrect},
		{"decimal equality", `print("1.0 0.50 1e2")`, "1 .5 100", grading.OutcomeCorrect},
		{"decimal inequality", `print("0.3333333")`, "0.33333333", grading.OutcomeWrongAnswer},
		{"inner spaces differ but tokens equal", `print("1  2")`, "1 2", grading.OutcomeCorrect},
		{"extra line", `print(1); print(2)`, "1", grading.OutcomeWrongAnswer},
		{"case matters", `print("yes")`, "YES", grading.OutcomeWrongAnswer},
		{"no output", `pass`, "1", grading.OutcomeWrongAnswer},
		{"sys.exit keeps output", "print(7)\nimport sys\nsys.exit(3)", "7", grading.OutcomeCorrect},
		{"exit() builtin", "print(8)\nexit()", "8", grading.OutcomeCorrect},
		{"thread main", "import threading, sys\nsys.setrecursionlimit(10**6)\nthreading.stack_size(1 << 26)\ndef main():\n    def f(n): return 0 if n == 0 else 1 + f(n - 1)\n    print(f(100000))\nthreading.Thread(target=main).start()", "100000", grading.OutcomeCorrect},
		{"open(0)", "print(sum(map(int, open(0).read().split())))", "6", grading.OutcomeCorrect},
		{"preamble names", "print(gcd(12, 18), comb(5, 2), bisect_left([1, 3], 2))", "6 10 1", grading.OutcomeCorrect},
		{"preamble stdout without flush", "stdout.write('9\\n')", "9", grading.OutcomeCorrect},
		{"unicode", `print("héllo")`, "héllo", grading.OutcomeCorrect},
		{"__name__ is __main__", "if __name__ == '__main__':\n    print('main')", "main", grading.OutcomeCorrect},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := run(t, s, c.program, stdinSpec("1 2 3\n", c.output))
			if v.Outcome != c.want {
				t.Errorf("got %s (%s), want %s", v.Outcome, v.Detail, c.want)
			}
		})
	}
}

func TestFunctionalComparison(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	cases := []struct {
		name, program, input, output string
		want                         grading.Outcome
	}{
		{"tuple for list", "class Solution:\n    def f(self, a):\n        return tuple(a)", "[1, 2]", "[1, 2]", grading.OutcomeCorrect},
		{"nested tuple is not a list", "class Solution:\n    def f(self, a):\n        return [tuple(a)]", "[1, 2]", "[[1, 2]]", grading.OutcomeWrongAnswer},
		{"set is not a list", "class Solution:\n    def f(self, a):\n        return set(a)", "[1, 2]", "[1, 2]", grading.OutcomeWrongAnswer},
		{"int equals float", "class Solution:\n    def f(self, a):\n        return 2", "[1]", "2.0", grading.OutcomeCorrect},
		{"float mismatch", "class Solution:\n    def f(self, a):\n        return 1/3", "[1]", "0.3333", grading.OutcomeWrongAnswer},
		{"big integer", "class Solution:\n    def f(self, a):\n        return 2**100 + a[0]", "[1]", "1267650600228229401496703205377", grading.OutcomeCorrect},
		{"big integer off by one", "class Solution:\n    def f(self, a):\n        return 2**100", "[1]", "1267650600228229401496703205377", grading.OutcomeWrongAnswer},
		{"string result", "class Solution:\n    def f(self, s):\n        return s[::-1]", `"abc"`, `"cba"`, grading.OutcomeCorrect},
		{"several arguments", "class Solution:\n    def f(self, a, k, s):\n        return [x * k for x in a] + [len(s)]", "[1, 2]\n3\n\"xy\"", "[3, 6, 2]", grading.OutcomeCorrect},
		{"nested lists", "class Solution:\n    def f(self, g):\n        return [r[::-1] for r in g]", "[[1, 2], [3, 4]]", "[[2, 1], [4, 3]]", grading.OutcomeCorrect},
		{"dict result", "class Solution:\n    def f(self, a):\n        return {'b': [True], 'a': 1.0}", "[1]", `{"a": 1, "b": [1]}`, grading.OutcomeCorrect},
		{"bool result", "class Solution:\n    def f(self, a):\n        return len(a) > 1", "[1, 2]", "true", grading.OutcomeCorrect},
		{"None result", "class Solution:\n    def f(self, a):\n        pass", "[1]", "1", grading.OutcomeWrongAnswer},
		{"typing names", "class Solution:\n    def f(self, a: List[int]) -> Optional[int]:\n        return max(a, default=None)", "[4, 9]", "9", grading.OutcomeCorrect},
		{"module-level helper", "def helper(x):\n    return x * 3\nclass Solution:\n    def f(self, a):\n        return helper(a[0])", "[2]", "6", grading.OutcomeCorrect},
		{"module-level precomputation", "PRIMES = [p for p in range(2, 50) if all(p % d for d in range(2, p))]\nclass Solution:\n    def f(self, a):\n        return PRIMES[a[0]]", "[3]", "7", grading.OutcomeCorrect},
		{"printing is ignored", "class Solution:\n    def f(self, a):\n        print('debug', a)\n        return 1", "[0]", "1", grading.OutcomeCorrect},
		{"no Solution class", "def g(a):\n    return 1", "[0]", "1", grading.OutcomeRuntimeError},
		{"missing method", "class Solution:\n    def g(self, a):\n        return 1", "[0]", "1", grading.OutcomeRuntimeError},
		{"plain function", "def f(a):\n    return a[0]", "[5]", "5", grading.OutcomeCorrect},
		{"exception", "class Solution:\n    def f(self, a):\n        return a[0] // 0", "[1]", "1", grading.OutcomeRuntimeError},
		{"syntax error", "class Solution:\n    def f(self, a)\n        return 1", "[1]", "1", grading.OutcomeRuntimeError},
		{"recursion", "class Solution:\n    def f(self, a):\n        def g(n): return 0 if n == 0 else 1 + g(n - 1)\n        return g(a[0])", "[20000]", "20000", grading.OutcomeCorrect},
		{"infinite float", "class Solution:\n    def f(self, a):\n        return float('inf')", "[1]", "1", grading.OutcomeWrongAnswer},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := run(t, s, c.program, funcSpec(c.input, c.output))
			if v.Outcome != c.want {
				t.Errorf("got %s (%s), want %s", v.Outcome, v.Detail, c.want)
			}
		})
	}
}

func TestRuntimeErrors(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	cases := []struct{ name, program, detail string }{
		{"exception", "print(1 // 0)", "ZeroDivisionError: integer division or modulo by zero"},
		{"syntax error", "print(", "SyntaxError"},
		{"name error", "print(undefined_name)", "NameError"},
		{"reading past input", "input(); input()", "EOFError"},
		{"output limit", "import sys\nsys.stdout.write('x' * (17 << 20))", "File too large"},
		{"killed by a signal", "import os, signal\nos.kill(os.getpid(), signal.SIGABRT)", "SIGABRT"},
		{"nonzero exit without a message", "import os\nos._exit(4)", "exit status 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := run(t, s, c.program, stdinSpec("1\n", "1"))
			if v.Outcome != grading.OutcomeRuntimeError || !strings.Contains(v.Detail, c.detail) {
				t.Errorf("got %s %q, want runtime_error mentioning %q", v.Outcome, v.Detail, c.detail)
			}
		})
	}
}

// TestTimeLimits: each limit is the only one that can fire in its case
// (the other is minutes away), so the verdict does not depend on how
// loaded the machine is; the programs never end.
func TestTimeLimits(t *testing.T) {
	t.Parallel()
	perTest := newSandbox(t, Options{TestTimeout: time.Second})
	t.Run("stdin infinite loop", func(t *testing.T) {
		v := run(t, perTest, "while True:\n    pass", stdinSpec("", "1"))
		if v.Outcome != grading.OutcomeTimeout || v.Detail != "test 1 of 1 (public): time limit 1s exceeded" {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("loop in module-level code", func(t *testing.T) {
		v := run(t, perTest, "while True:\n    pass", funcSpec("1", "1"))
		if v.Outcome != grading.OutcomeTimeout || v.Detail != "test 1 of 1 (public): time limit 1s exceeded" {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("C-level loop", func(t *testing.T) {
		// A single long bytecode: signals would not interrupt it; Go does
		// not rely on them.
		v := run(t, perTest, "x = 10 ** (10 ** 9)\nprint(1)", stdinSpec("", "1"))
		if v.Outcome != grading.OutcomeTimeout {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("functional infinite loop", func(t *testing.T) {
		// The first test passes; the second never returns. The limit is
		// far above what the first takes, and the loop sleeps (no CPU).
		s := newSandbox(t, Options{TestTimeout: 10 * time.Second})
		spec := &grading.CodeSpec{TestType: grading.TestFunctional, FuncName: "f",
			Public: []grading.TestCase{{Input: "1", Output: "1"}, {Input: "2", Output: "2"}}}
		v := run(t, s, "import time\nclass Solution:\n    def f(self, x):\n        while x == 2:\n            time.sleep(1)\n        return x", spec)
		if v.Outcome != grading.OutcomeTimeout || v.Detail != "test 2 of 2 (public): time limit 10s exceeded" {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("total limit", func(t *testing.T) {
		// Ten tests of at least half a second each cannot finish in 3s,
		// and no single test can reach its own limit first.
		s := newSandbox(t, Options{TotalTimeout: 3 * time.Second})
		spec := &grading.CodeSpec{TestType: grading.TestStdin}
		for range 10 {
			spec.Public = append(spec.Public, grading.TestCase{Input: "", Output: "ok"})
		}
		v := run(t, s, "import time\ntime.sleep(0.5)\nprint('ok')", spec)
		if v.Outcome != grading.OutcomeTimeout || !strings.Contains(v.Detail, "total time limit 3s exceeded") {
			t.Errorf("got %+v", v)
		}
		if p := sandboxProcesses(s); len(p) != 0 {
			t.Errorf("processes of the sandbox user survive: %v", p)
		}
	})
	t.Run("context cancelled", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		v, err := perTest.RunTests(ctx, "while True:\n    pass", stdinSpec("", "1"))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %+v, %v after %v, want the context's error", v, err, time.Since(start))
		}
	})
	if p := sandboxProcesses(perTest); len(p) != 0 {
		t.Errorf("processes of the sandbox user survive: %v", p)
	}
}

func TestEnvironmentDoesNotLeak(t *testing.T) {
	t.Setenv("TRIAGE_SANDBOX_SECRET", "hunter2-do-not-leak")
	s := newSandbox(t, Options{})
	program := `import os
leaks = [k for k, v in os.environ.items() if "hunter2" in v or "SECRET" in k]
try:
    with open("/proc/self/environ", "rb") as f:
        if b"hunter2" in f.read():
            leaks.append("/proc/self/environ")
except OSError:
    pass
print(" ".join(sorted(os.environ)))
print(",".join(leaks) or "no leaks")
`
	want := "HOME LANG PATH PYTHONDONTWRITEBYTECODE PYTHONHASHSEED TMPDIR\nno leaks"
	v := run(t, s, program, stdinSpec("", want))
	if !v.Correct() {
		t.Errorf("got %+v", v)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{Concurrency: 2})
	// Each program records the time it ran; at most 2 overlap.
	var mu sync.Mutex
	type span struct{ start, end time.Time }
	var spans []span
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			v, err := s.RunTests(context.Background(), "import time\ntime.sleep(0.2)\nprint(1)", stdinSpec("", "1"))
			if err != nil || !v.Correct() {
				t.Errorf("%v %+v", err, v)
			}
			mu.Lock()
			spans = append(spans, span{start, time.Now()})
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(s.slots) != 2 {
		t.Errorf("%d slots free after the runs, want 2", len(s.slots))
	}
	// 6 programs of >= 0.2s at concurrency 2 take >= 0.6s.
	first, last := spans[0].start, spans[0].end
	for _, sp := range spans {
		if sp.start.Before(first) {
			first = sp.start
		}
		if sp.end.After(last) {
			last = sp.end
		}
	}
	if d := last.Sub(first); d < 600*time.Millisecond {
		t.Errorf("6 programs took %v: more than 2 ran at once", d)
	}
}

func TestInfrastructureErrors(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	cases := []struct {
		name string
		spec *grading.CodeSpec
	}{
		{"nil spec", nil},
		{"no tests", &grading.CodeSpec{TestType: grading.TestStdin}},
		{"bad test type", &grading.CodeSpec{TestType: "x", Public: []grading.TestCase{{}}}},
		{"malformed functional input", funcSpec("{bad", "1")},
		{"malformed functional output", funcSpec("1", "[1,")},
	}
	for _, c := range cases {
		if _, err := s.RunTests(context.Background(), "def f(x):\n    return 1", c.spec); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

func TestGraderWithSandbox(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	var prob lcbProblem
	for _, p := range loadLCB(t) {
		if p.ID == "1899_C" {
			prob = p
		}
	}
	solutions := sandboxtest.LCBSolutions()
	response := "We keep a running best sum that resets when two neighbours share parity.\n\n```python\n" +
		solutions["1899_C"] + "```\n\nThis runs in O(n) per test."
	g := grading.New(s, nil)
	v, err := g.Grade(context.Background(), grading.Spec{Kind: grading.KindCode, Code: &prob.Spec}, "", response)
	if err != nil || !v.Correct() || v.Extracted != solutions["1899_C"] {
		t.Errorf("got %+v, %v", v, err)
	}
}

// A program reading standard input where it has none gets nothing: it
// cannot consume what the harness reads.
func TestProgramCannotConsumeTests(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	spec := &grading.CodeSpec{TestType: grading.TestFunctional, FuncName: "f",
		Public: []grading.TestCase{{Input: "1", Output: "2"}, {Input: "2", Output: "3"}, {Input: "3", Output: "4"}}}
	program := "import sys\nJUNK = sys.stdin.read()\nclass Solution:\n    def f(self, x):\n        sys.stdin.read()\n        return x + 1 + len(JUNK)\n"
	if v := run(t, s, program, spec); !v.Correct() {
		t.Errorf("got %+v", v)
	}
}

// An interpreter path that is a shim needing the caller's environment (as
// pyenv's) is resolved to the real executable, which then runs in the
// sandbox with a clean environment.
func TestShimResolved(t *testing.T) {
	py, _ := candidates("")
	if len(py) == 0 {
		t.Fatal("python3 is not installed: code grading needs it (CI installs it)")
	}
	real, err := inspect(py[0])
	if err != nil {
		t.Fatal(err)
	}
	shim := filepath.Join(t.TempDir(), "python3")
	script := "#!/bin/sh\n[ -n \"$FAKE_SHIM_ROOT\" ] || { echo 'shim: FAKE_SHIM_ROOT unset' >&2; exit 1; }\nexec " + real.exe + " \"$@\"\n"
	if err := os.WriteFile(shim, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKE_SHIM_ROOT", "/somewhere")
	s := newSandbox(t, Options{Python: shim})
	if got := s.Isolation().Python; got != real.exe {
		t.Errorf("interpreter %q, want the shim resolved to %q", got, real.exe)
	}
	if v := run(t, s, "print(input())", stdinSpec("x\n", "x")); !v.Correct() {
		t.Errorf("got %+v", v)
	}
}

// outputs runs program in s as a stdin program, once per input, and
// returns what each test process wrote to its standard output (for tests
// that need a program's whole report, which a verdict's detail shortens).
func outputs(t *testing.T, s *Sandbox, program string, inputs ...string) []string {
	t.Helper()
	cfg := harnessConfig{TestType: string(grading.TestStdin), Program: program,
		Rlimits: s.lim.harnessRlimits(), Limits: s.lim.harness(), Env: programEnv(),
		OOMScoreAdj: map[string]int{"harness": harnessOOMScoreAdj, "test": testOOMScoreAdj}}
	if s.filters != nil {
		cfg.ProgramFilter = s.filters.program
	}
	p, err := s.spawn(s.python, s.cg, cfg)
	if p != nil {
		defer func() {
			if err := p.stop(); err != nil {
				t.Errorf("stop: %v", err)
			}
		}()
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := s.awaitReady(ctx, p); err != nil {
		t.Fatal(err)
	}
	var outs []string
	for i, in := range inputs {
		p.send(testRequest{I: i, Input: in})
		select {
		case fe := <-p.frames:
			if fe.err != nil || fe.f.Status != statusExited || *fe.f.Code != 0 {
				t.Fatalf("test %d: %+v %v: %s", i, fe.f, fe.err, p.failure())
			}
			outs = append(outs, string(fe.f.Stdout))
		case <-ctx.Done():
			t.Fatalf("test %d: no result in 2 minutes", i)
		}
	}
	return outs
}

// withoutSeccomp returns a sandbox like s but without seccomp filters: the
// control that shows what a filter refuses.
func withoutSeccomp(t *testing.T, opts Options) *Sandbox {
	t.Helper()
	s := newSandbox(t, opts)
	s.filters = nil
	return s
}
