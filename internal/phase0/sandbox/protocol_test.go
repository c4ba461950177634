package sandbox

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/phase0/grading"
)

// framed prefixes payload with its length, as the harness does.
func framed(payload string) []byte {
	b := make([]byte, 4, 4+len(payload))
	binary.BigEndian.PutUint32(b, uint32(len(payload)))
	return append(b, payload...)
}

func TestReadFrame(t *testing.T) {
	ready := `{"ev": "ready", "python": "3.11.2", "executable": "/usr/bin/python3", "checks": {"uid": 1000, "undumpable": true, "no_new_privs": true, "cap_eff": "0", "cap_prm": "0", "cap_bnd": "0"}}`
	result := `{"ev": "result", "i": 3, "status": "exited", "code": 0, "stdout": "aGk=", "stderr": ""}`
	cases := []struct {
		name  string
		input []byte
		err   string // "" for a valid frame
	}{
		{"ready", framed(ready), ""},
		{"result", framed(result), ""},
		{"fork failed", framed(`{"ev": "result", "i": 0, "status": "fork_failed"}`), ""},
		{"setup failed", framed(`{"ev": "setup_failed", "error": "boom"}`), ""},
		{"end of stream", nil, "EOF"},
		{"truncated header", []byte{0, 0}, "truncated frame header"},
		{"truncated payload", framed(result)[:20], "truncated frame"},
		{"empty frame", framed(""), "frame of 0 bytes"},
		{"oversized frame", []byte{0xff, 0xff, 0xff, 0xff}, "frame of 4294967295 bytes"},
		{"not JSON", framed("result 0 pass"), "malformed frame"},
		{"old-style pass record", framed(`{"ev": "result", "i": 0, "status": "pass", "detail": ""}`), "malformed frame"},
		{"unknown status", framed(`{"ev": "result", "i": 0, "status": "pass", "code": 0}`), `result status "pass"`},
		{"unknown event", framed(`{"ev": "done"}`), `event "done"`},
		{"result without index", framed(`{"ev": "result", "status": "exited", "code": 0}`), "without test index"},
		{"result without code", framed(`{"ev": "result", "i": 0, "status": "exited"}`), "without code"},
		{"trailing data", framed(result + ` {}`), "trailing data"},
		{"ready without checks", framed(`{"ev": "ready", "python": "3"}`), "ready without"},
		{"bad base64", framed(`{"ev": "result", "i": 0, "status": "exited", "code": 0, "stdout": "!!"}`), "malformed frame"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := readFrame(bytes.NewReader(c.input), 1<<20)
			switch {
			case c.err == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("got %+v, %v; want an error mentioning %q", f, err, c.err)
			}
		})
	}
}

func TestJudge(t *testing.T) {
	code := func(n int) *int { return &n }
	stdin := expectation{text: "hi"}
	list, _ := parseJSON("[1]")
	functional := expectation{text: "[1]", value: list}
	cases := []struct {
		name    string
		tt      grading.TestType
		want    expectation
		f       frame
		oom     bool
		outcome grading.Outcome
		detail  string
	}{
		{"stdin pass", grading.TestStdin, stdin, frame{Status: statusExited, Code: code(0), Stdout: []byte("hi\n")}, false, outcomePass, ""},
		{"stdin wrong", grading.TestStdin, stdin, frame{Status: statusExited, Code: code(0), Stdout: []byte("ho")}, false, grading.OutcomeWrongAnswer, "expected 'hi', got 'ho'"},
		{"exception", grading.TestStdin, stdin, frame{Status: statusExited, Code: code(1), Stdout: []byte("hi"), Stderr: "Traceback...\n  File x\nValueError: bad\n"}, false, grading.OutcomeRuntimeError, "ValueError: bad"},
		{"silent exit", grading.TestStdin, stdin, frame{Status: statusExited, Code: code(3), Stdout: []byte("hi")}, false, grading.OutcomeRuntimeError, "exit status 3"},
		{"CPU limit", grading.TestStdin, stdin, frame{Status: statusSignaled, Code: code(int(syscall.SIGXCPU))}, false, grading.OutcomeTimeout, "CPU time limit exceeded"},
		{"memory limit", grading.TestStdin, stdin, frame{Status: statusSignaled, Code: code(int(syscall.SIGKILL)), Stdout: []byte("hi")}, true, grading.OutcomeRuntimeError, "memory limit exceeded (1 GiB for all of the program's processes)"},
		{"killed", grading.TestStdin, stdin, frame{Status: statusSignaled, Code: code(int(syscall.SIGKILL)), Stdout: []byte("hi")}, false, grading.OutcomeRuntimeError, "killed by SIGKILL"},
		{"segfault", grading.TestStdin, stdin, frame{Status: statusSignaled, Code: code(int(syscall.SIGSEGV))}, false, grading.OutcomeRuntimeError, "segmentation fault (stack overflow?)"},
		{"no process", grading.TestStdin, stdin, frame{Status: statusForkFailed}, false, grading.OutcomeRuntimeError, "no process could be started for the test (process limit reached)"},
		{"functional pass", grading.TestFunctional, functional, frame{Status: statusExited, Code: code(0), Stdout: []byte(`{"result": [1.0]}`)}, false, outcomePass, ""},
		{"functional wrong", grading.TestFunctional, functional, frame{Status: statusExited, Code: code(0), Stdout: []byte(`{"result": [2]}`)}, false, grading.OutcomeWrongAnswer, "expected '[1]', got '[2]'"},
		{"functional garbage", grading.TestFunctional, functional, frame{Status: statusExited, Code: code(0), Stdout: []byte(`[1]`)}, false, grading.OutcomeRuntimeError, "the test process wrote a malformed result: json: cannot unmarshal array into Go value of type struct { Result json.RawMessage \"json:\\\"result\\\"\"; Incomparable *string \"json:\\\"incomparable\\\"\" }"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outcome, detail := judge(c.tt, c.want, c.f, c.oom, 1<<30)
			if outcome != c.outcome || detail != c.detail {
				t.Errorf("got %s %q, want %s %q", outcome, detail, c.outcome, c.detail)
			}
		})
	}
}

// fakeHarness stands in for a sandbox whose harness sends the given
// reports, one per test request, so that drive can be checked against
// any report a compromised harness could send.
func fakeHarness(reports []frameOrError) *program {
	p := &program{sends: make(chan any, 16), frames: make(chan frameOrError), done: make(chan struct{}), exited: make(chan struct{}), stderr: &capped{max: 100}}
	close(p.exited)
	go func() {
		for _, r := range reports {
			select {
			case <-p.sends:
			case <-p.done:
				return
			}
			select {
			case p.frames <- r:
			case <-p.done:
				return
			}
		}
	}()
	return p
}

func TestDriveNeverPassesOnBadReports(t *testing.T) {
	code := func(n int) *int { return &n }
	idx := func(n int) *int { return &n }
	pass := func(i int) frameOrError {
		return frameOrError{f: frame{Ev: evResult, I: idx(i), Status: statusExited, Code: code(0), Stdout: []byte("ok")}}
	}
	cases := []struct {
		name    string
		reports []frameOrError
		outcome grading.Outcome
		detail  string
	}{
		{"all pass", []frameOrError{pass(0), pass(1)}, grading.OutcomeCorrect, "passed 2 of 2 tests"},
		{"result for another test", []frameOrError{pass(1), pass(1)}, grading.OutcomeRuntimeError, "test 1 of 2 (public): unexpected report"},
		{"result repeated", []frameOrError{pass(0), pass(0)}, grading.OutcomeRuntimeError, "test 2 of 2 (public): unexpected report"},
		{"ready instead of a result", []frameOrError{{f: frame{Ev: evReady}}}, grading.OutcomeRuntimeError, "test 1 of 2 (public): unexpected report \"ready\""},
		{"malformed frame", []frameOrError{pass(0), {err: errors.New("malformed frame: trailing data")}}, grading.OutcomeRuntimeError, "test 2 of 2 (public): the sandbox's harness ended during the test (malformed frame: trailing data)"},
		{"harness gone", []frameOrError{{err: io.EOF}}, grading.OutcomeRuntimeError, "test 1 of 2 (public): the sandbox's harness ended during the test (EOF)"},
	}
	s := &Sandbox{opts: Options{TestTimeout: time.Minute, TotalTimeout: 5 * time.Minute}}
	spec := &grading.CodeSpec{TestType: grading.TestStdin, Public: []grading.TestCase{{Output: "ok"}, {Output: "ok"}}}
	tests, wants, err := prepare(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := fakeHarness(c.reports)
			defer close(p.done)
			v, err := s.drive(context.Background(), p, spec, tests, wants)
			if err != nil || v.Outcome != c.outcome || !strings.HasPrefix(v.Detail, c.detail) {
				t.Errorf("got %+v, %v; want %s %q", v, err, c.outcome, c.detail)
			}
		})
	}
	// A harness that reports nothing times out.
	p := fakeHarness(nil)
	defer close(p.done)
	s.opts.TestTimeout = 50 * time.Millisecond
	if v, err := s.drive(context.Background(), p, spec, tests, wants); err != nil || v.Outcome != grading.OutcomeTimeout {
		t.Errorf("silent harness: %+v, %v", v, err)
	}
}

func TestChecksProblems(t *testing.T) {
	lim := newLimits(Options{MemoryBytes: 1 << 30, MaxProcs: 32, MaxFiles: 64, TotalTimeout: time.Minute, FallbackProcs: 8}, nil)
	want := lim.init()
	rl := map[string][2]int64{}
	for _, r := range want {
		rl[r.name] = [2]int64{int64(r.soft), int64(r.hard)}
	}
	good := checks{UID: 1000, PID: 1, Seccomp: 2, Undumpable: true, NoNewPrivs: true, CapEff: "0000000000000000", CapPrm: "0000000000000000", CapBnd: "0000000000000000", Rlimits: rl}
	if p := good.problems(want, true); len(p) != 0 {
		t.Errorf("good checks: %v", p)
	}
	bad := good
	bad.UID, bad.Undumpable, bad.CapBnd, bad.PID, bad.Seccomp = 0, false, "000001ffffffffff", 2, 0
	bad.Rlimits = map[string][2]int64{"as": {-1, -1}, "nproc": rl["nproc"], "nofile": rl["nofile"], "cpu": rl["cpu"]}
	if p := bad.problems(want, true); len(p) != 7 {
		t.Errorf("bad checks: %v, want 7 problems (uid, dumpable, capabilities, pid, seccomp, AS unlimited, CORE missing)", p)
	}
}
