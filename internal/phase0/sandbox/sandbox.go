package sandbox

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/triage-eval/triage/internal/phase0/grading"
)

//go:embed harness.py
var harnessSource string

// bootstrap is the interpreter's -c program: it reads the harness from
// standard input (ahead of the config and the tests), so that the command
// line stays short.
var bootstrap = fmt.Sprintf(`import sys; exec(compile(sys.stdin.buffer.read(%d), "harness.py", "exec"))`, len(harnessSource))

// Sandbox runs untrusted Python programs against test cases. It implements
// grading.CodeRunner. Safe for concurrent use.
type Sandbox struct {
	opts   Options
	python string
	iso    Isolation
	slots  chan int
	root   bool
}

var _ grading.CodeRunner = (*Sandbox)(nil)

// New finds a Python interpreter and the strongest isolation that works,
// by running a probe program; it fails when no interpreter can be run.
func New(opts Options) (*Sandbox, error) {
	opts.defaults()
	s := &Sandbox{opts: opts, root: os.Geteuid() == 0}
	s.slots = make(chan int, opts.Concurrency)
	for k := range opts.Concurrency {
		s.slots <- k
	}
	pythons, notes := candidates(opts.Python)
	if len(pythons) == 0 {
		return nil, fmt.Errorf("sandbox: no Python 3 interpreter found (%s); install python3 (the Debian package python3; python3-minimal lacks modules the sandbox needs) or set Options.Python", strings.Join(notes, "; "))
	}
	var modes []Mode
	switch opts.Mode {
	case ModeAuto:
		if s.root {
			modes = []Mode{ModeNamespaces, ModeUserNamespaces, ModeNone}
		} else {
			modes = []Mode{ModeUserNamespaces, ModeNone}
		}
	case ModeNamespaces, ModeUserNamespaces, ModeNone:
		if opts.Mode == ModeNamespaces && !s.root {
			return nil, fmt.Errorf("sandbox: mode %q needs root", opts.Mode)
		}
		modes = []Mode{opts.Mode}
	default:
		return nil, fmt.Errorf("sandbox: unknown mode %q", opts.Mode)
	}
	var failures []string
	for _, m := range modes {
		for _, py := range pythons {
			iso, err := s.probe(m, py)
			if err != nil {
				failures = append(failures, fmt.Sprintf("%s with %s: %v", m, py, err))
				continue
			}
			s.python = py
			iso.Notes = append(append(notes, failures...), iso.Notes...)
			s.iso = iso
			return s, nil
		}
	}
	return nil, fmt.Errorf("sandbox: no working configuration: %s", strings.Join(failures, "; "))
}

// Isolation reports what the sandbox enforces.
func (s *Sandbox) Isolation() Isolation { return s.iso }

// RunTests runs program against c's public and then private tests, stopping
// at the first failure. An error means the tests could not be run.
func (s *Sandbox) RunTests(ctx context.Context, program string, c *grading.CodeSpec) (grading.Verdict, error) {
	if c == nil {
		return grading.Verdict{}, errors.New("sandbox: no code spec")
	}
	if c.TestType != grading.TestStdin && c.TestType != grading.TestFunctional {
		return grading.Verdict{}, fmt.Errorf("sandbox: unknown test type %q", c.TestType)
	}
	tests := append(append([]grading.TestCase(nil), c.Public...), c.Private...)
	if len(tests) == 0 {
		return grading.Verdict{}, errors.New("sandbox: no test cases")
	}
	var slot int
	select {
	case slot = <-s.slots:
	case <-ctx.Done():
		return grading.Verdict{}, ctx.Err()
	}
	defer func() { s.slots <- slot }()

	cfg := config{Mode: string(c.TestType), Func: c.FuncName, Program: program}
	p, err := s.start(s.iso.Mode, s.python, slot, cfg, tests)
	if err != nil {
		return grading.Verdict{}, err
	}
	defer p.kill()

	label := func(i int) string {
		if i < 0 {
			i = 0
		}
		kind := "public"
		if i >= len(c.Public) {
			kind = "private"
		}
		return fmt.Sprintf("test %d of %d (%s)", i+1, len(tests), kind)
	}
	total := time.NewTimer(s.opts.TotalTimeout)
	defer total.Stop()
	perTest := time.NewTimer(time.Hour)
	perTest.Stop()
	defer perTest.Stop()
	current, ready, passed := -1, false, 0
	for {
		select {
		case <-ctx.Done():
			return grading.Verdict{}, ctx.Err()
		case <-total.C:
			return grading.Verdict{Outcome: grading.OutcomeTimeout,
				Detail: fmt.Sprintf("%s: total time limit %s exceeded", label(current), s.opts.TotalTimeout)}, nil
		case <-perTest.C:
			what := label(current)
			if current < 0 {
				what += ": loading the program"
			}
			return grading.Verdict{Outcome: grading.OutcomeTimeout,
				Detail: fmt.Sprintf("%s: time limit %s exceeded", what, s.opts.TestTimeout)}, nil
		case msg, ok := <-p.msgs:
			if !ok {
				<-p.exited
				if !ready {
					return grading.Verdict{}, fmt.Errorf("sandbox: harness failed before running the program: %s", p.failure())
				}
				return grading.Verdict{Outcome: grading.OutcomeRuntimeError,
					Detail: fmt.Sprintf("%s: the program's process ended abnormally (%s)", label(current), p.failure())}, nil
			}
			switch msg.Ev {
			case "setup_failed":
				return grading.Verdict{}, fmt.Errorf("sandbox: setup failed: %s", msg.Error)
			case "ready":
				ready = true
			case "start":
				current = msg.I
				perTest.Reset(s.opts.TestTimeout)
			case "result":
				perTest.Stop()
				if msg.I >= 0 {
					current = msg.I
				}
				switch msg.Status {
				case "pass":
					passed++
					continue
				case "wrong":
					return grading.Verdict{Outcome: grading.OutcomeWrongAnswer, Detail: label(current) + ": " + msg.Detail}, nil
				case "timeout":
					return grading.Verdict{Outcome: grading.OutcomeTimeout, Detail: label(current) + ": " + msg.Detail}, nil
				case "bad_test", "infra":
					return grading.Verdict{}, fmt.Errorf("sandbox: %s: %s", label(current), msg.Detail)
				default:
					return grading.Verdict{Outcome: grading.OutcomeRuntimeError, Detail: label(current) + ": " + msg.Detail}, nil
				}
			case "done":
				if passed != len(tests) {
					return grading.Verdict{}, fmt.Errorf("sandbox: harness finished after %d of %d tests", passed, len(tests))
				}
				return grading.Verdict{Outcome: grading.OutcomeCorrect,
					Detail: fmt.Sprintf("passed %d of %d tests", passed, len(tests))}, nil
			}
		}
	}
}

// capped is a writer keeping the first max bytes.
type capped struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (c *capped) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); room > 0 {
		if len(b) > room {
			c.buf.Write(b[:room])
		} else {
			c.buf.Write(b)
		}
	}
	return len(b), nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}
