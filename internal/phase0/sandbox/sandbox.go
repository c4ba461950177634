package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/phase0/grading"
)

// setupTimeout bounds how long a sandbox may take to start (bwrap, the
// interpreter, the harness's imports) before RunTests gives up with an
// error; it does not count against the program's time limits.
const setupTimeout = 30 * time.Second

// killTimeout bounds how long killed processes may take to die and their
// cgroup to go, which is milliseconds unless the machine is stalled; past
// it, cleaning up is an error.
const killTimeout = 30 * time.Second

// Sandbox runs untrusted Python programs against test cases in bubblewrap.
// It implements grading.CodeRunner. Safe for concurrent use.
type Sandbox struct {
	opts   Options
	bwrap  bubblewrap
	python interpreter
	cg     *cgroups // nil: rlimits only
	lim    limits
	// filters are the seccomp filters; nil only in tests (a control
	// sandbox without them).
	filters *filters
	iso     Isolation
	slots   chan struct{}
	root    bool
	runs    *runMetrics
}

var _ grading.CodeRunner = (*Sandbox)(nil)

// New finds bubblewrap, a Python interpreter and the cgroups to use, then
// runs a trivial program through the whole sandbox to check that it works
// and that the isolation holds. It fails when bubblewrap or Python is
// missing or the sandbox cannot start: code is never run unsandboxed.
func New(opts Options) (*Sandbox, error) {
	opts.defaults()
	bw, err := findBubblewrap(opts.Bubblewrap)
	if err != nil {
		return nil, err
	}
	filters, err := newFilters()
	if err != nil {
		return nil, err
	}
	s := &Sandbox{opts: opts, bwrap: bw, filters: filters, root: os.Geteuid() == 0, runs: newRunMetrics(opts.MeterProvider)}
	// This process must be the kernel's last choice, after any program.
	oomAdj, oomNote, err := lowerOOMScore(oomScoreFile, serverOOMScoreAdj)
	if err != nil {
		oomNote = err.Error()
	}
	s.slots = make(chan struct{}, opts.Concurrency)
	for range opts.Concurrency {
		s.slots <- struct{}{}
	}
	cg, cgNotes, err := findCgroups(opts.Cgroup, opts.CgroupParent, cgroupLimits{
		memory: opts.MemoryBytes, pids: opts.MaxProcs + sandboxProcs, cpus: opts.CPUs})
	if err != nil {
		return nil, err
	}
	pythons, notes := candidates(opts.Python)
	if len(pythons) == 0 {
		return nil, fmt.Errorf("sandbox: no Python 3 interpreter found (%s); install python3 (the Debian package python3; python3-minimal lacks modules the sandbox needs) or set Options.Python", strings.Join(notes, "; "))
	}
	notes = append(notes, cgNotes...)
	var failures []string
	for _, path := range pythons {
		py, err := inspect(path)
		if err != nil {
			failures = append(failures, err.Error())
			continue
		}
		ready, err := s.selfTest(py, cg)
		if err != nil && cg != nil && opts.Cgroup == CgroupAuto {
			// The cgroup could be made but not used (a v2 cgroup this
			// user may not move processes into): rlimits only.
			notes = append(notes, fmt.Sprintf("cgroup v%d unusable: %v", cg.version, err))
			cg = nil
			ready, err = s.selfTest(py, nil)
		}
		if err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", py.exe, err))
			continue
		}
		s.iso = s.isolation(ready, append(notes, failures...))
		s.iso.OOMScoreAdj, s.iso.OOM = oomAdj, oomNote
		return s, nil
	}
	return nil, fmt.Errorf("sandbox: no working configuration: %s", strings.Join(failures, "; "))
}

// selfTest configures s with py and cg and runs a one-test program, which
// must pass; it returns the harness's ready report.
func (s *Sandbox) selfTest(py interpreter, cg *cgroups) (frame, error) {
	s.python, s.cg, s.lim = py, cg, newLimits(s.opts, cg)
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout+s.opts.TotalTimeout)
	defer cancel()
	spec := &grading.CodeSpec{TestType: grading.TestStdin, Public: []grading.TestCase{{Input: "ok\n", Output: "ok"}}}
	v, ready, err := s.run(ctx, "print(input())", spec)
	if err != nil {
		return frame{}, err
	}
	if !v.Correct() {
		return frame{}, fmt.Errorf("the self-test program failed: %s: %s", v.Outcome, v.Detail)
	}
	return ready, nil
}

// Isolation reports what the sandbox enforces.
func (s *Sandbox) Isolation() Isolation { return s.iso }

// RunTests runs program against c's public and then private tests, one
// at a time, stopping at the first failure. An error means the tests
// could not be run.
func (s *Sandbox) RunTests(ctx context.Context, program string, c *grading.CodeSpec) (grading.Verdict, error) {
	v, _, err := s.run(ctx, program, c)
	s.runs.record(ctx, v, err)
	return v, err
}

// run is RunTests, also returning the harness's ready report.
func (s *Sandbox) run(ctx context.Context, program string, c *grading.CodeSpec) (v grading.Verdict, ready frame, err error) {
	tests, wants, err := prepare(c)
	if err != nil {
		return grading.Verdict{}, frame{}, err
	}
	select {
	case <-s.slots:
	case <-ctx.Done():
		return grading.Verdict{}, frame{}, ctx.Err()
	}
	defer func() { s.slots <- struct{}{} }()

	cfg := harnessConfig{
		TestType:    string(c.TestType),
		Func:        c.FuncName,
		Program:     program,
		Rlimits:     s.lim.harnessRlimits(),
		Limits:      s.lim.harness(),
		Env:         programEnv(),
		OOMScoreAdj: map[string]int{"harness": harnessOOMScoreAdj, "test": testOOMScoreAdj},
	}
	if s.filters != nil {
		cfg.ProgramFilter = s.filters.program
	}
	p, err := s.spawn(s.python, s.cg, cfg)
	if p != nil {
		defer func() {
			if serr := p.stop(); serr != nil && err == nil {
				err = fmt.Errorf("sandbox: cleaning up: %w", serr)
			}
		}()
	}
	if err != nil {
		return grading.Verdict{}, frame{}, err
	}
	if ready, err = s.awaitReady(ctx, p); err != nil {
		return grading.Verdict{}, frame{}, err
	}
	v, err = s.drive(ctx, p, c, tests, wants)
	return v, ready, err
}

// prepare lists c's tests, public first, and their expectations; a
// malformed test case is an error.
func prepare(c *grading.CodeSpec) ([]grading.TestCase, []expectation, error) {
	if c == nil {
		return nil, nil, errors.New("sandbox: no code spec")
	}
	if c.TestType != grading.TestStdin && c.TestType != grading.TestFunctional {
		return nil, nil, fmt.Errorf("sandbox: unknown test type %q", c.TestType)
	}
	tests := append(append([]grading.TestCase(nil), c.Public...), c.Private...)
	if len(tests) == 0 {
		return nil, nil, errors.New("sandbox: no test cases")
	}
	wants := make([]expectation, len(tests))
	for i, tc := range tests {
		wants[i].text = tc.Output
		if c.TestType != grading.TestFunctional {
			continue
		}
		if err := functionalInputOK(tc.Input); err != nil {
			return nil, nil, fmt.Errorf("sandbox: test %d: malformed test case: %v", i+1, err)
		}
		v, err := parseJSON(tc.Output)
		if err != nil {
			return nil, nil, fmt.Errorf("sandbox: test %d: malformed test case: the expected output is not JSON: %v", i+1, err)
		}
		wants[i].value = v
	}
	return tests, wants, nil
}

// awaitReady waits for the harness's ready report and checks the
// isolation it reports. Nothing of the program has run yet, so any
// failure is the sandbox's: an error.
func (s *Sandbox) awaitReady(ctx context.Context, p *program) (frame, error) {
	timer := time.NewTimer(setupTimeout)
	defer timer.Stop()
	select {
	case fe := <-p.frames:
		switch {
		case fe.err != nil:
			p.waitExit(time.Second)
			return frame{}, fmt.Errorf("sandbox: the harness failed to start (%v): %s", fe.err, p.failure())
		case fe.f.Ev == evSetupFailed:
			return frame{}, fmt.Errorf("sandbox: setup failed: %s", fe.f.Error)
		case fe.f.Ev != evReady:
			return frame{}, fmt.Errorf("sandbox: the harness sent %q before it was ready", fe.f.Ev)
		}
		if probs := fe.f.Checks.problems(s.lim.init(), s.filters != nil); len(probs) > 0 {
			return frame{}, fmt.Errorf("sandbox: isolation check failed: %s", strings.Join(probs, "; "))
		}
		return fe.f, nil
	case <-timer.C:
		return frame{}, fmt.Errorf("sandbox: the harness did not start within %s: %s", setupTimeout, p.failure())
	case <-ctx.Done():
		return frame{}, ctx.Err()
	}
}

// drive sends the tests one at a time and judges each result as it comes,
// enforcing the wall-time limits.
func (s *Sandbox) drive(ctx context.Context, p *program, c *grading.CodeSpec, tests []grading.TestCase, wants []expectation) (grading.Verdict, error) {
	label := func(i int) string {
		kind := "public"
		if i >= len(c.Public) {
			kind = "private"
		}
		return fmt.Sprintf("test %d of %d (%s)", i+1, len(tests), kind)
	}
	total := time.NewTimer(s.opts.TotalTimeout)
	defer total.Stop()
	perTest := time.NewTimer(s.opts.TestTimeout)
	defer perTest.Stop()
	for i, tc := range tests {
		var oomBefore int64
		if p.cg != nil {
			oomBefore = p.cg.oomKills()
		}
		p.send(testRequest{I: i, Input: tc.Input})
		perTest.Reset(s.opts.TestTimeout)
		select {
		case fe := <-p.frames:
			perTest.Stop()
			if fe.err != nil {
				p.waitExit(100 * time.Millisecond)
				return grading.Verdict{Outcome: grading.OutcomeRuntimeError,
					Detail: fmt.Sprintf("%s: the sandbox's harness ended during the test (%v): %s", label(i), fe.err, p.failure())}, nil
			}
			if fe.f.Ev != evResult || *fe.f.I != i {
				return grading.Verdict{Outcome: grading.OutcomeRuntimeError,
					Detail: fmt.Sprintf("%s: unexpected report %q for test %v", label(i), fe.f.Ev, fe.f.I)}, nil
			}
			oom := p.cg != nil && p.cg.oomKills() > oomBefore
			outcome, detail := judge(c.TestType, wants[i], fe.f, oom, s.opts.MemoryBytes)
			if outcome != outcomePass {
				return grading.Verdict{Outcome: outcome, Detail: label(i) + ": " + detail}, nil
			}
		case <-perTest.C:
			return grading.Verdict{Outcome: grading.OutcomeTimeout,
				Detail: fmt.Sprintf("%s: time limit %s exceeded", label(i), s.opts.TestTimeout)}, nil
		case <-total.C:
			return grading.Verdict{Outcome: grading.OutcomeTimeout,
				Detail: fmt.Sprintf("%s: total time limit %s exceeded", label(i), s.opts.TotalTimeout)}, nil
		case <-ctx.Done():
			return grading.Verdict{}, ctx.Err()
		}
	}
	return grading.Verdict{Outcome: grading.OutcomeCorrect,
		Detail: fmt.Sprintf("passed %d of %d tests", len(tests), len(tests))}, nil
}
