package sandbox

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/triage-eval/triage/internal/grading"
)

//go:embed harness.py
var harnessSource string

// bootstrap is the interpreter's -c program: it reads the harness from
// standard input (ahead of the config and the tests), so that the command
// line stays short.
var bootstrap = fmt.Sprintf(`import sys; exec(compile(sys.stdin.buffer.read(%d), "harness.py", "exec"))`, len(harnessSource))

// Mode selects how a program is isolated.
type Mode string

// Isolation modes, strongest first.
const (
	// ModeAuto picks the strongest mode that works here: ModeNamespaces
	// when running as root, ModeUserNamespaces otherwise, else ModeNone.
	ModeAuto Mode = ""
	// ModeNamespaces (root only): fresh mount, PID, network, IPC and UTS
	// namespaces; every mount read-only, a private tmpfs /tmp; the program
	// runs as a dedicated unprivileged uid.
	ModeNamespaces Mode = "namespaces"
	// ModeUserNamespaces (no root needed): as ModeNamespaces inside a new
	// user namespace; the program keeps the caller's uid, with every
	// capability dropped.
	ModeUserNamespaces Mode = "user-namespaces"
	// ModeNone: a plain subprocess with rlimits in a temporary directory;
	// as root, under a dedicated unprivileged uid. The network and the
	// file system are not isolated.
	ModeNone Mode = "none"
)

// Options configure a Sandbox. Zero fields take the defaults.
type Options struct {
	// Python is the interpreter to run. Default: the real executable
	// behind "python3" on PATH (resolved through shims such as pyenv's),
	// else /usr/bin/python3 or /usr/local/bin/python3 — the first that the
	// sandbox user can run.
	Python string
	// Mode selects the isolation; default ModeAuto.
	Mode Mode
	// Concurrency is how many programs run at once (default 2).
	Concurrency int
	// TestTimeout is the wall-time limit of one test (default 6s, as
	// LiveCodeBench).
	TestTimeout time.Duration
	// TotalTimeout is the wall-time limit of all of a program's tests
	// (default 60s).
	TotalTimeout time.Duration
	// MemoryBytes is RLIMIT_AS per process (default 1 GiB).
	MemoryBytes int64
	// FileSizeBytes is RLIMIT_FSIZE, also bounding a test's output
	// (default 16 MiB).
	FileSizeBytes int64
	// WorkDirBytes is the size of the private tmpfs holding the work
	// directory (default 64 MiB; namespace modes only).
	WorkDirBytes int64
	// MaxProcs is RLIMIT_NPROC: processes and threads of the sandbox user
	// (default 32).
	MaxProcs int
	// MaxFiles is RLIMIT_NOFILE (default 64).
	MaxFiles int
	// BaseUID is the uid (and gid) of concurrency slot 0 when running as
	// root; slot k uses BaseUID+k, so concurrent programs never share a
	// process count. Default: a block of 64 uids from 2000000000 (a range
	// no distribution allocates) chosen by the process id, each Sandbox of
	// the process taking the next Concurrency uids of it, so concurrent
	// sandboxes and triage processes do not share uids.
	BaseUID int
}

func (o *Options) defaults() {
	if o.Concurrency <= 0 {
		o.Concurrency = 2
	}
	if o.TestTimeout <= 0 {
		o.TestTimeout = 6 * time.Second
	}
	if o.TotalTimeout <= 0 {
		o.TotalTimeout = 60 * time.Second
	}
	if o.MemoryBytes <= 0 {
		o.MemoryBytes = 1 << 30
	}
	if o.FileSizeBytes <= 0 {
		o.FileSizeBytes = 16 << 20
	}
	if o.WorkDirBytes <= 0 {
		o.WorkDirBytes = 64 << 20
	}
	if o.MaxProcs <= 0 {
		o.MaxProcs = 32
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = 64
	}
	if o.BaseUID <= 0 {
		o.BaseUID = defaultBaseUID(o.Concurrency)
	}
}

var uidsTaken atomic.Int64

func defaultBaseUID(n int) int {
	const block = 64
	n = min(n, block)
	first := int(uidsTaken.Add(int64(n))-int64(n)) % block
	if first+n > block {
		first = 0 // wrap around
	}
	return 2_000_000_000 + (os.Getpid()%100_000)*block + first
}

// Isolation reports what a Sandbox enforces, as measured when it was
// created.
type Isolation struct {
	// Mode is the isolation mode in use.
	Mode Mode
	// Python is the interpreter and its version.
	Python, PythonVersion string
	// NoNetwork: the program is in an empty network namespace (only a
	// down loopback), so every connection fails.
	NoNetwork bool
	// PIDNamespace: the program's processes live in their own PID
	// namespace and all die with it; it sees only them in /proc.
	PIDNamespace bool
	// ReadOnlyFS: every mount is read-only to the program; only the work
	// directory (and a small private /dev/shm) is writable.
	ReadOnlyFS bool
	// PrivateTmp: /tmp is a private, size-limited tmpfs.
	PrivateTmp bool
	// Unprivileged: the program runs without root's powers (a dedicated
	// uid, or no capabilities in a user namespace).
	Unprivileged bool
	// DedicatedUID: each concurrency slot runs as its own uid, so
	// RLIMIT_NPROC bounds the program's processes.
	DedicatedUID bool
	// Rlimits lists the resource limits applied to every process.
	Rlimits []string
	// Notes explain what could not be enforced and why.
	Notes []string
}

func (i Isolation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mode=%s python=%s (%s)", i.Mode, i.Python, i.PythonVersion)
	flag := func(name string, on bool) {
		if on {
			fmt.Fprintf(&b, " +%s", name)
		} else {
			fmt.Fprintf(&b, " -%s", name)
		}
	}
	flag("no-network", i.NoNetwork)
	flag("pid-namespace", i.PIDNamespace)
	flag("read-only-fs", i.ReadOnlyFS)
	flag("private-tmp", i.PrivateTmp)
	flag("unprivileged", i.Unprivileged)
	flag("dedicated-uid", i.DedicatedUID)
	fmt.Fprintf(&b, " rlimits=%s", strings.Join(i.Rlimits, ","))
	for _, n := range i.Notes {
		fmt.Fprintf(&b, "; %s", n)
	}
	return b.String()
}

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

// candidates lists interpreters to try, in order: explicit alone when set,
// else python3 on PATH, /usr/bin/python3, /usr/local/bin/python3.
func candidates(explicit string) (list, notes []string) {
	if explicit != "" {
		// A shim given explicitly is resolved too.
		if exe, err := realExecutable(explicit); err == nil {
			return []string{exe}, nil
		}
		return []string{explicit}, nil
	}
	seen := map[string]bool{}
	add := func(p string) {
		if p == "" || seen[p] {
			return
		}
		seen[p] = true
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			list = append(list, p)
		}
	}
	if p, err := exec.LookPath("python3"); err == nil {
		if exe, err := realExecutable(p); err == nil {
			add(exe)
		} else {
			notes = append(notes, fmt.Sprintf("%s did not report its executable: %v", p, err))
		}
	} else {
		notes = append(notes, "python3 is not on PATH")
	}
	add("/usr/bin/python3")
	add("/usr/local/bin/python3")
	return list, notes
}

// realExecutable asks python for sys.executable: shims (pyenv, asdf) need
// the caller's environment to find the real interpreter, which the sandbox
// then runs directly, with a clean environment.
func realExecutable(python string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return "", err
	}
	exe := strings.TrimSpace(string(out))
	if !filepath.IsAbs(exe) {
		return "", fmt.Errorf("sys.executable is %q", exe)
	}
	return exe, nil
}

// message is one line of the harness's report.
type message struct {
	Ev     string          `json:"ev"`
	I      int             `json:"i"`
	Status string          `json:"status"`
	Detail string          `json:"detail"`
	Error  string          `json:"error"`
	Iso    map[string]bool `json:"iso"`
	Notes  []string        `json:"notes"`
	Python string          `json:"python"`
	Ver    string          `json:"version"`
}

type config struct {
	Setup     string            `json:"setup"`
	UID       *int              `json:"uid"`
	GID       *int              `json:"gid"`
	Workdir   string            `json:"workdir,omitempty"`
	WorkBytes int64             `json:"work_bytes"`
	Limits    map[string]int64  `json:"limits"`
	Env       map[string]string `json:"env"`
	Probe     bool              `json:"probe,omitempty"`
	Mode      string            `json:"mode,omitempty"`
	Func      string            `json:"func,omitempty"`
	Program   string            `json:"program,omitempty"`
	NTests    int               `json:"ntests"`
}

// process is one running harness.
type process struct {
	cmd     *exec.Cmd
	msgs    chan message
	exited  chan struct{} // closed when the harness has exited
	done    chan struct{} // closed when nobody reads msgs any more
	stderr  *capped
	workdir string // removed at the end (ModeNone)
	uid     int    // killed at the end when >= 0 (ModeNone as root)
}

// start launches the harness in mode m with interpreter py in slot, feeding
// it cfg and then tests.
func (s *Sandbox) start(m Mode, py string, slot int, cfg config, tests []grading.TestCase) (*process, error) {
	p := &process{uid: -1}
	uid := s.opts.BaseUID + slot
	workdir := "/tmp/work"
	switch m {
	case ModeNamespaces:
		cfg.Setup = "root"
		cfg.UID, cfg.GID = &uid, &uid
	case ModeUserNamespaces:
		cfg.Setup = "userns"
	case ModeNone:
		cfg.Setup = "none"
		dir, err := os.MkdirTemp("", "triage-sandbox-")
		if err != nil {
			return nil, fmt.Errorf("sandbox: work dir: %w", err)
		}
		p.workdir = dir
		if s.root {
			if err := os.Chown(dir, uid, uid); err != nil {
				os.RemoveAll(dir)
				return nil, fmt.Errorf("sandbox: work dir: %w", err)
			}
			cfg.UID, cfg.GID = &uid, &uid
			p.uid = uid
		}
		cfg.Workdir = dir
		workdir = dir
	}
	cfg.WorkBytes = s.opts.WorkDirBytes
	cfg.Env = map[string]string{
		"PATH":                    "/usr/local/bin:/usr/bin:/bin",
		"HOME":                    workdir,
		"TMPDIR":                  workdir,
		"LANG":                    "C.UTF-8",
		"PYTHONDONTWRITEBYTECODE": "1",
		"PYTHONHASHSEED":          "0",
	}
	cpu := int64(s.opts.TotalTimeout/time.Second) + 1
	testCPU := int64(s.opts.TestTimeout/time.Second) + 1
	cfg.Limits = map[string]int64{
		"as":       s.opts.MemoryBytes,
		"fsize":    s.opts.FileSizeBytes,
		"nofile":   int64(s.opts.MaxFiles),
		"nproc":    int64(s.opts.MaxProcs),
		"cpu":      cpu,
		"test_cpu": testCPU,
	}
	if m == ModeNone && !s.root {
		// Without a dedicated uid RLIMIT_NPROC would count all of the
		// caller's processes.
		delete(cfg.Limits, "nproc")
	}
	cfg.NTests = len(tests)

	// fd 3 carries the harness's reports, fd 4 the config and the tests;
	// standard input only the harness itself.
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		p.cleanup()
		return nil, fmt.Errorf("sandbox: pipe: %w", err)
	}
	testsR, testsW, err := os.Pipe()
	if err != nil {
		ctlR.Close()
		ctlW.Close()
		p.cleanup()
		return nil, fmt.Errorf("sandbox: pipe: %w", err)
	}
	cmd := exec.Command(py, "-B", "-s", "-c", bootstrap)
	cmd.Dir = "/"
	if m == ModeNone {
		cmd.Dir = workdir
	}
	cmd.Env = []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=" + workdir,
		"LANG=C.UTF-8",
		"PYTHONDONTWRITEBYTECODE=1",
		"PYTHONHASHSEED=0",
		// glibc reserves 64 MiB of address space per malloc arena and
		// thread; under RLIMIT_AS a few threads would exhaust it.
		"MALLOC_ARENA_MAX=2",
	}
	cmd.Stdin = strings.NewReader(harnessSource)
	cmd.ExtraFiles = []*os.File{ctlW, testsR}
	p.stderr = &capped{max: 16 << 10}
	cmd.Stdout = &capped{max: 4 << 10}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = time.Second
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	switch m {
	case ModeNamespaces:
		attr.Cloneflags = syscall.CLONE_NEWPID | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
		attr.Unshareflags = syscall.CLONE_NEWNS
	case ModeUserNamespaces:
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
		attr.Unshareflags = syscall.CLONE_NEWNS
		host := os.Getuid()
		hostG := os.Getgid()
		if s.root {
			// Root emulates an unprivileged caller: the namespace's root
			// is the slot's uid outside.
			host, hostG = uid, uid
		}
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: host, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: hostG, Size: 1}}
		attr.GidMappingsEnableSetgroups = false
		if s.root {
			// Become the namespace's root (the process is still the
			// host's root, unmapped in the new namespace, until then).
			attr.Credential = &syscall.Credential{Uid: 0, Gid: 0, NoSetGroups: true}
		}
	}
	cmd.SysProcAttr = attr
	err = cmd.Start()
	ctlW.Close()
	testsR.Close()
	if err != nil {
		ctlR.Close()
		testsW.Close()
		p.cleanup()
		return nil, fmt.Errorf("sandbox: start %s: %w", py, err)
	}
	p.cmd = cmd
	p.msgs = make(chan message, 16)
	p.exited = make(chan struct{})
	p.done = make(chan struct{})
	go func() {
		// Writes fail (EPIPE) once the harness is gone.
		defer testsW.Close()
		w := bufio.NewWriterSize(testsW, 1<<16)
		enc := json.NewEncoder(w)
		if enc.Encode(cfg) != nil {
			return
		}
		for _, t := range tests {
			if enc.Encode(t) != nil {
				return
			}
		}
		w.Flush()
	}()
	go func() {
		defer close(p.msgs)
		defer ctlR.Close()
		sc := bufio.NewScanner(ctlR)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var msg message
			if json.Unmarshal(sc.Bytes(), &msg) != nil {
				continue
			}
			select {
			case p.msgs <- msg:
			case <-p.done:
				return
			}
		}
	}()
	go func() {
		cmd.Wait()
		// Processes that outlived the harness (a PID namespace dies with
		// its first process; ModeNone needs help) may still hold the
		// report pipe: stop reading it soon.
		ctlR.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		close(p.exited)
	}()
	return p, nil
}

// kill ends the harness and everything it started, and waits for it.
func (p *process) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		close(p.done)
		pgid := p.cmd.Process.Pid
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.exited
		if p.uid < 0 {
			// Without a PID namespace or a dedicated uid only the process
			// group can be reached; wait until it is dead.
			sweep(func(pr procInfo) bool { return pr.pgrp == pgid }, false)
		}
	}
	p.cleanup()
}

func (p *process) cleanup() {
	if p.uid >= 0 {
		// A dedicated uid without a PID namespace (ModeNone as root):
		// everything of the uid is the program's, however it detached.
		// Wait for init to reap them too: until then they count against
		// the next program's RLIMIT_NPROC.
		sweep(func(pr procInfo) bool { return pr.uid == p.uid }, true)
	}
	if p.workdir != "" {
		os.RemoveAll(p.workdir)
	}
}

// sweep kills every process matching, repeating until none is left (a
// fork bomb keeps forking while it is being killed; RLIMIT_NPROC bounds
// it), for at most 5 seconds. Zombies are dead already (init reaps them):
// sweep waits for them only if zombies is set.
func sweep(match func(procInfo) bool, zombies bool) {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		n := 0
		for _, pr := range processes() {
			if match(pr) && (zombies || pr.state != 'Z') {
				syscall.Kill(pr.pid, syscall.SIGKILL)
				n++
			}
		}
		if n == 0 {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// procInfo is what sweep needs to know of a process.
type procInfo struct {
	pid, pgrp, uid int
	state          byte
}

// processes lists the processes in /proc.
func processes() []procInfo {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []procInfo
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		pr := procInfo{pid: pid, uid: -1}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold anything.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 3 {
			continue
		}
		pr.state = f[0][0]
		pr.pgrp, _ = strconv.Atoi(f[2])
		status, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "Uid:" {
				pr.uid, _ = strconv.Atoi(f[1])
				break
			}
		}
		out = append(out, pr)
	}
	return out
}

// probe runs the harness with no program and reports the isolation it
// achieved.
func (s *Sandbox) probe(m Mode, py string) (Isolation, error) {
	slot := <-s.slots
	defer func() { s.slots <- slot }()
	p, err := s.start(m, py, slot, config{Probe: true}, nil)
	if err != nil {
		return Isolation{}, err
	}
	defer p.kill()
	timer := time.NewTimer(30 * time.Second)
	defer timer.Stop()
	for {
		select {
		case msg, ok := <-p.msgs:
			if !ok {
				<-p.exited
				return Isolation{}, fmt.Errorf("harness exited before setup: %s", p.failure())
			}
			switch msg.Ev {
			case "setup_failed":
				return Isolation{}, errors.New(msg.Error)
			case "ready":
				iso := Isolation{
					Mode:          m,
					Python:        py,
					PythonVersion: msg.Ver,
					NoNetwork:     m != ModeNone,
					PIDNamespace:  m != ModeNone,
					ReadOnlyFS:    msg.Iso["readonly_fs"],
					PrivateTmp:    msg.Iso["private_tmp"],
					Unprivileged:  msg.Iso["unprivileged"],
					DedicatedUID:  s.root,
					Notes:         msg.Notes,
				}
				iso.Rlimits = []string{
					"AS=" + strconv.FormatInt(s.opts.MemoryBytes, 10),
					"CPU=" + strconv.FormatInt(int64(s.opts.TotalTimeout/time.Second)+1, 10) + "s",
					"FSIZE=" + strconv.FormatInt(s.opts.FileSizeBytes, 10),
					"NOFILE=" + strconv.Itoa(s.opts.MaxFiles),
					"CORE=0",
				}
				if m != ModeNone || s.root {
					iso.Rlimits = append(iso.Rlimits, "NPROC="+strconv.Itoa(s.opts.MaxProcs))
				} else {
					iso.Notes = append(iso.Notes, "RLIMIT_NPROC is not set: without a dedicated uid it would count all of the caller's processes")
				}
				if m == ModeNone {
					iso.Notes = append(iso.Notes, "no namespaces: the program can use the network and write wherever its user can")
				}
				if !msg.Iso["no_new_privs"] {
					iso.Notes = append(iso.Notes, "no_new_privs could not be set")
				}
				return iso, nil
			}
		case <-timer.C:
			return Isolation{}, errors.New("probe timed out")
		}
	}
}

// failure describes why the harness stopped: its exit status and the tail
// of its standard error.
func (p *process) failure() string {
	st := "unknown status"
	if ps := p.cmd.ProcessState; ps != nil {
		st = ps.String()
	}
	tail := strings.TrimSpace(p.stderr.String())
	if len(tail) > 500 {
		tail = "..." + tail[len(tail)-500:]
	}
	if tail == "" {
		return st
	}
	return st + ": " + tail
}

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
