package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/phase0/grading"
)

const lcbSample = "../../../shared/data/lcb/lcb_sample.jsonl"

type lcbProblem struct {
	ID   string
	Spec grading.CodeSpec
}

// loadLCB reads the shared LiveCodeBench sample (native schema: the test
// cases and metadata are JSON strings).
func loadLCB(t testing.TB) []lcbProblem {
	t.Helper()
	f, err := os.Open(lcbSample)
	if err != nil {
		t.Fatalf("the shared LiveCodeBench sample is required: %v", err)
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
			t.Fatalf("%s:%d: %v", lcbSample, n, err)
		}
		var tests []struct {
			Input    string `json:"input"`
			Output   string `json:"output"`
			TestType string `json:"testtype"`
		}
		if err := json.Unmarshal([]byte(rec.PublicTests), &tests); err != nil || len(tests) == 0 {
			t.Fatalf("%s:%d: public_test_cases: %v", lcbSample, n, err)
		}
		var meta struct {
			FuncName string `json:"func_name"`
		}
		if rec.Metadata != "" {
			if err := json.Unmarshal([]byte(rec.Metadata), &meta); err != nil {
				t.Fatalf("%s:%d: metadata: %v", lcbSample, n, err)
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

// newSandbox makes a sandbox with its own uid range (so that counting the
// sandbox user's processes is not confused by other tests), skipping the
// test when no Python 3 exists.
func newSandbox(t testing.TB, opts Options) *Sandbox {
	t.Helper()
	if py, _ := candidates(opts.Python); len(py) == 0 {
		t.Skip("python3 is not installed: the code sandbox cannot be tested")
	}
	if opts.BaseUID == 0 {
		opts.BaseUID = 2_000_000_000 + 16*int(uidSeq.Add(1))
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

// modes lists the isolation modes that work here.
func modes(t *testing.T) []Mode {
	t.Helper()
	all := []Mode{ModeNamespaces, ModeUserNamespaces, ModeNone}
	if os.Geteuid() != 0 {
		all = all[1:]
	}
	var ok []Mode
	for _, m := range all {
		if py, _ := candidates(""); len(py) == 0 {
			t.Skip("python3 is not installed: the code sandbox cannot be tested")
		}
		if _, err := New(Options{Mode: m, BaseUID: 2_100_000_000}); err != nil {
			t.Logf("mode %s is unavailable here: %v", m, err)
			continue
		}
		ok = append(ok, m)
	}
	return ok
}

func stdinSpec(input, output string) *grading.CodeSpec {
	return &grading.CodeSpec{TestType: grading.TestStdin, Public: []grading.TestCase{{Input: input, Output: output}}}
}

func run(t *testing.T, s *Sandbox, program string, c *grading.CodeSpec) grading.Verdict {
	t.Helper()
	v, err := s.RunTests(context.Background(), program, c)
	if err != nil {
		t.Fatalf("RunTests: %v", err)
	}
	return v
}

// sandboxProcesses lists the live processes of the sandbox's uids.
func sandboxProcesses(s *Sandbox) []int {
	if os.Geteuid() != 0 {
		return nil
	}
	var pids []int
	for _, pr := range processes() {
		if pr.state != 'Z' && pr.uid >= s.opts.BaseUID && pr.uid < s.opts.BaseUID+s.opts.Concurrency {
			pids = append(pids, pr.pid)
		}
	}
	return pids
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
	if iso.Python == "" || iso.PythonVersion == "" || !strings.HasPrefix(iso.PythonVersion, "3.") {
		t.Errorf("interpreter not reported: %+v", iso)
	}
	if os.Geteuid() == 0 && iso.Mode == ModeNamespaces {
		if !iso.NoNetwork || !iso.PIDNamespace || !iso.ReadOnlyFS || !iso.PrivateTmp || !iso.Unprivileged || !iso.DedicatedUID {
			t.Errorf("namespaces as root should enforce everything: %s", iso)
		}
	}
}

func TestLCBCorrectSolutionsPass(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	probs := loadLCB(t)
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
	for id, prog := range wrongSolutions {
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
		{"unicode", `print("héllo")`, "héllo", grading.OutcomeCorrect},
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
		{"int equals float", "class Solution:\n    def f(self, a):\n        return 2", "[1]", "2.0", grading.OutcomeCorrect},
		{"float mismatch", "class Solution:\n    def f(self, a):\n        return 1/3", "[1]", "0.3333", grading.OutcomeWrongAnswer},
		{"string result", "class Solution:\n    def f(self, s):\n        return s[::-1]", `"abc"`, `"cba"`, grading.OutcomeCorrect},
		{"several arguments", "class Solution:\n    def f(self, a, k, s):\n        return [x * k for x in a] + [len(s)]", "[1, 2]\n3\n\"xy\"", "[3, 6, 2]", grading.OutcomeCorrect},
		{"nested lists", "class Solution:\n    def f(self, g):\n        return [r[::-1] for r in g]", "[[1, 2], [3, 4]]", "[[2, 1], [4, 3]]", grading.OutcomeCorrect},
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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := &grading.CodeSpec{TestType: grading.TestFunctional, FuncName: "f",
				Public: []grading.TestCase{{Input: c.input, Output: c.output}}}
			v := run(t, s, c.program, spec)
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
		{"output limit", "import sys\nsys.stdout.write('x' * (40 << 20))", "File too large"},
		{"killed by a signal", "import os, signal\nos.kill(os.getpid(), signal.SIGABRT)", "SIGABRT"},
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

func TestTimeLimits(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{TestTimeout: time.Second, TotalTimeout: 3 * time.Second})
	t.Run("stdin infinite loop", func(t *testing.T) {
		v := run(t, s, "while True:\n    pass", stdinSpec("", "1"))
		if v.Outcome != grading.OutcomeTimeout || v.Detail != "test 1 of 1 (public): time limit 1s exceeded" {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("functional infinite loop", func(t *testing.T) {
		spec := &grading.CodeSpec{TestType: grading.TestFunctional, FuncName: "f",
			Public: []grading.TestCase{{Input: "1", Output: "1"}, {Input: "2", Output: "2"}}}
		v := run(t, s, "class Solution:\n    def f(self, x):\n        while x == 2:\n            pass\n        return x", spec)
		if v.Outcome != grading.OutcomeTimeout || v.Detail != "test 2 of 2 (public): time limit 1s exceeded" {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("loop while loading", func(t *testing.T) {
		spec := &grading.CodeSpec{TestType: grading.TestFunctional, FuncName: "f", Public: []grading.TestCase{{Input: "1", Output: "1"}}}
		v := run(t, s, "while True:\n    pass", spec)
		if v.Outcome != grading.OutcomeTimeout || !strings.Contains(v.Detail, "loading the program") {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("C-level loop", func(t *testing.T) {
		// A single long bytecode: signals would not interrupt it; the
		// harness's parent does not rely on them.
		v := run(t, s, "x = 10 ** (10 ** 9)\nprint(1)", stdinSpec("", "1"))
		if v.Outcome != grading.OutcomeTimeout {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("total limit", func(t *testing.T) {
		spec := &grading.CodeSpec{TestType: grading.TestStdin}
		for range 10 {
			spec.Public = append(spec.Public, grading.TestCase{Input: "", Output: "ok"})
		}
		v := run(t, s, "import time\ntime.sleep(0.5)\nprint('ok')", spec)
		if v.Outcome != grading.OutcomeTimeout || !strings.Contains(v.Detail, "total time limit 3s exceeded") {
			t.Errorf("got %+v", v)
		}
	})
	t.Run("context cancelled", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		v, err := s.RunTests(ctx, "while True:\n    pass", stdinSpec("", "1"))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %+v, %v after %v, want the context's error", v, err, time.Since(start))
		}
	})
	if p := sandboxProcesses(s); len(p) != 0 {
		t.Errorf("processes of the sandbox user survive: %v", p)
	}
}

// TestContainment checks, in every isolation mode available here, that
// the sandbox contains what the issue lists.
//
// The modes run one after the other: a fork bomb saturates the CPUs for
// its time limit and would slow a parallel mode's programs past theirs.
func TestContainment(t *testing.T) {
	t.Parallel()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range modes(t) {
		t.Run(string(m), func(t *testing.T) {
			s := newSandbox(t, Options{Mode: m, TestTimeout: 1500 * time.Millisecond, TotalTimeout: 10 * time.Second})
			iso := s.Isolation()
			t.Logf("%s", iso)

			t.Run("timeout kills the process group", func(t *testing.T) {
				marker := fmt.Sprintf("%d.%d", 86000+uidSeq.Add(1), time.Now().UnixNano()%1000)
				detach := "    os.setsid()\n"
				if !iso.PIDNamespace && !iso.DedicatedUID {
					detach = "" // only the process group can be killed here
				}
				program := "import os\nif os.fork() == 0:\n" + detach +
					"    os.execv('/bin/sleep', ['sleep', '" + marker + "'])\nwhile True:\n    pass\n"
				seen := make(chan int, 1)
				stop := make(chan struct{})
				go func() {
					for {
						if pid := findCmdline("sleep\x00" + marker + "\x00"); pid > 0 {
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
				if pid := findCmdline("sleep\x00" + marker + "\x00"); pid > 0 {
					t.Errorf("the forked child %d outlived the program", pid)
				}
			})

			t.Run("fork bomb", func(t *testing.T) {
				if !iso.PIDNamespace && !iso.DedicatedUID {
					t.Skip("this mode has no process limit: a fork bomb would not be contained")
				}
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
			})

			t.Run("large allocation", func(t *testing.T) {
				v := run(t, s, "x = bytearray(8 << 30)\nprint(len(x))", stdinSpec("", "1"))
				if v.Outcome != grading.OutcomeRuntimeError || !strings.Contains(v.Detail, "MemoryError") {
					t.Errorf("got %+v, want runtime_error MemoryError", v)
				}
				v = run(t, s, "chunks = []\nwhile True:\n    chunks.append(bytes(64 << 20))", stdinSpec("", "1"))
				if v.Outcome != grading.OutcomeRuntimeError || !strings.Contains(v.Detail, "MemoryError") {
					t.Errorf("growing allocation: got %+v, want runtime_error MemoryError", v)
				}
				spec := &grading.CodeSpec{TestType: grading.TestFunctional, FuncName: "f", Public: []grading.TestCase{{Input: "1", Output: "1"}}}
				v = run(t, s, "class Solution:\n    def f(self, x):\n        return len(bytearray(8 << 30))", spec)
				if v.Outcome != grading.OutcomeRuntimeError || !strings.Contains(v.Detail, "MemoryError") {
					t.Errorf("functional: got %+v, want runtime_error MemoryError", v)
				}
			})

			t.Run("writes outside the work dir fail", func(t *testing.T) {
				name := fmt.Sprintf("triage-sandbox-escape-%d", time.Now().UnixNano())
				targets := []string{"/root/" + name, "/etc/" + name, filepath.Join(repo, name), "/" + name}
				if iso.ReadOnlyFS || iso.PrivateTmp {
					targets = append(targets, "/tmp/"+name, "/var/tmp/"+name)
				}
				for _, p := range targets {
					t.Cleanup(func() { os.Remove(p) })
				}
				quoted, _ := json.Marshal(targets)
				program := "import os\nempty = os.listdir('.') == []\nbad = []\nfor p in " + string(quoted) + ":\n" +
					"    try:\n        with open(p, 'w') as f:\n            f.write('x')\n        bad.append(p)\n    except OSError:\n        pass\n" +
					"with open('inside.txt', 'w') as f:\n    f.write('fine')\n" +
					"os.mkdir('sub')\nwith open('sub/x', 'w') as f:\n    f.write('y')\n" +
					"print('empty' if empty else 'not empty', open('inside.txt').read(), ','.join(bad) or 'none')\n"
				v := run(t, s, program, stdinSpec("", "empty fine none"))
				if !v.Correct() {
					t.Errorf("got %+v", v)
				}
				for _, p := range targets {
					if _, err := os.Stat(p); err == nil {
						t.Errorf("%s was created", p)
					}
				}
			})

			t.Run("sockets fail", func(t *testing.T) {
				if !iso.NoNetwork {
					t.Skip("this mode has no network namespace")
				}
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				var accepted atomic.Int32
				go func() {
					for {
						c, err := ln.Accept()
						if err != nil {
							return
						}
						accepted.Add(1)
						c.Close()
					}
				}()
				port := ln.Addr().(*net.TCPAddr).Port
				program := fmt.Sprintf(`import socket
res = []
for addr in [("127.0.0.1", %d), ("1.1.1.1", 53), ("::1", %d)]:
    try:
        socket.create_connection(addr, timeout=3).close()
        res.append("connected")
    except OSError:
        res.append("blocked")
try:
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.sendto(b"x", ("1.1.1.1", 53))
    res.append("sent")
except OSError:
    res.append("blocked")
try:
    socket.getaddrinfo("example.com", 80)
    res.append("resolved")
except OSError:
    res.append("blocked")
print(" ".join(res))
`, port, port)
				v := run(t, s, program, stdinSpec("", "blocked blocked blocked blocked blocked"))
				if !v.Correct() {
					t.Errorf("got %+v", v)
				}
				if n := accepted.Load(); n != 0 {
					t.Errorf("the listener accepted %d connections", n)
				}
			})

			t.Run("no root powers", func(t *testing.T) {
				if !iso.Unprivileged {
					t.Skip("not running as root")
				}
				program := `import os
res = []
if os.getuid() != 0:
    try:
        os.setuid(0)
        res.append("setuid")
    except OSError:
        pass
with open("/proc/self/status") as f:
    caps = [l.split()[1] for l in f if l.startswith(("CapEff", "CapPrm"))]
if caps != ["0000000000000000"] * 2:
    res.append("capabilities " + " ".join(caps))
try:
    open("/etc/shadow").read()
    res.append("shadow")
except OSError:
    pass
try:
    os.listdir("/root")
    res.append("root-home")
except OSError:
    pass
print(",".join(res) or "none")
`
				if v := run(t, s, program, stdinSpec("", "none")); !v.Correct() {
					t.Errorf("got %+v", v)
				}
			})

			if p := sandboxProcesses(s); len(p) != 0 {
				t.Errorf("processes of the sandbox user survive: %v", p)
			}
		})
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
	if _, err := s.RunTests(context.Background(), "print(1)", nil); err == nil {
		t.Error("nil spec: no error")
	}
	if _, err := s.RunTests(context.Background(), "print(1)", &grading.CodeSpec{TestType: grading.TestStdin}); err == nil {
		t.Error("no tests: no error")
	}
	if _, err := s.RunTests(context.Background(), "print(1)", &grading.CodeSpec{TestType: "x", Public: []grading.TestCase{{}}}); err == nil {
		t.Error("bad test type: no error")
	}
	spec := &grading.CodeSpec{TestType: grading.TestFunctional, FuncName: "f", Public: []grading.TestCase{{Input: "{bad", Output: "1"}}}
	if _, err := s.RunTests(context.Background(), "def f(x):\n    return 1", spec); err == nil {
		t.Error("malformed functional test: no error")
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
	response := "We keep a running best sum that resets when two neighbours share parity.\n\n```python\n" +
		solutions["1899_C"] + "```\n\nThis runs in O(n) per test."
	g := grading.New(s, nil)
	v, err := g.Grade(context.Background(), grading.Spec{Kind: grading.KindCode, Code: &prob.Spec}, "", response)
	if err != nil || !v.Correct() || v.Extracted != solutions["1899_C"] {
		t.Errorf("got %+v, %v", v, err)
	}
}

// findCmdline returns the pid of a process whose command line contains
// want, or 0.
func findCmdline(want string) int {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, []byte(want)) {
			var pid int
			fmt.Sscan(e.Name(), &pid)
			if pid > 0 && pid != os.Getpid() {
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

// A program reading standard input where it has none must not consume the
// harness's test stream.
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
// pyenv's) is resolved to the real executable, which then runs with a
// clean environment.
func TestShimResolved(t *testing.T) {
	py, _ := candidates("")
	if len(py) == 0 {
		t.Skip("python3 is not installed: the code sandbox cannot be tested")
	}
	real, err := realExecutable(py[len(py)-1])
	if err != nil {
		t.Fatal(err)
	}
	shim := filepath.Join(t.TempDir(), "python3")
	script := "#!/bin/sh\n[ -n \"$FAKE_SHIM_ROOT\" ] || { echo 'shim: FAKE_SHIM_ROOT unset' >&2; exit 1; }\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(shim, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKE_SHIM_ROOT", "/somewhere")
	s := newSandbox(t, Options{Python: shim})
	if got := s.Isolation().Python; got != real {
		t.Errorf("interpreter %q, want the shim resolved to %q", got, real)
	}
	if v := run(t, s, "print(input())", stdinSpec("x\n", "x")); !v.Correct() {
		t.Errorf("got %+v", v)
	}
}
