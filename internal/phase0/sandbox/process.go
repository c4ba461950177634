package sandbox

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/triage-eval/triage/internal/phase0/grading"
)

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
