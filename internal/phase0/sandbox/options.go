package sandbox

import (
	_ "embed"
	"os"
	"sync/atomic"
	"time"
)

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

// uidsTaken counts the uid slots handed out in this process. It is the one
// piece of package state, on purpose: uids are a process-wide (indeed
// machine-wide) resource, so two Sandboxes built independently in one
// process must not be given the same ones by default.
var uidsTaken atomic.Int64

// defaultBaseUID returns the first uid of a fresh block of n slots.
func defaultBaseUID(n int) int {
	const block = 64
	n = min(n, block)
	first := int(uidsTaken.Add(int64(n))-int64(n)) % block
	if first+n > block {
		first = 0 // wrap around
	}
	return 2_000_000_000 + (os.Getpid()%100_000)*block + first
}
