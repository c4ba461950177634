package sandbox

import (
	"time"

	"go.opentelemetry.io/otel/metric"
)

// CgroupMode selects how a program's processes are bounded together.
type CgroupMode string

// Cgroup modes.
const (
	// CgroupAuto uses cgroup v1 memory and pids controllers when they are
	// mounted and writable, else cgroup v2 with memory and pids, else the
	// bounded rlimits of CgroupNone.
	CgroupAuto CgroupMode = ""
	// CgroupV1 requires cgroup v1 (memory, pids; cpu if mounted).
	CgroupV1 CgroupMode = "v1"
	// CgroupV2 requires cgroup v2 with the memory and pids controllers.
	CgroupV2 CgroupMode = "v2"
	// CgroupNone uses no cgroup: memory is bounded only by rlimits chosen
	// so that their product stays bounded (FallbackProcs processes of
	// 2·MemoryBytes/FallbackProcs address space each).
	CgroupNone CgroupMode = "none"
)

// Options configure a Sandbox. Zero fields take the defaults.
type Options struct {
	// Bubblewrap is the bwrap executable. Default: bwrap on PATH, else
	// /usr/bin/bwrap.
	Bubblewrap string
	// Python is the interpreter to run. Default: /usr/bin/python3, else
	// /usr/local/bin/python3, else python3 on PATH (resolved through
	// shims such as pyenv's to the real executable).
	Python string
	// Concurrency is how many programs run at once (default 2).
	Concurrency int
	// TestTimeout is the wall-time limit of one test (default 6s, as
	// LiveCodeBench).
	TestTimeout time.Duration
	// TotalTimeout is the wall-time limit of all of a program's tests
	// (default 60s).
	TotalTimeout time.Duration
	// MemoryBytes bounds the memory of all of a program's processes
	// together (default 1 GiB): the cgroup's limit, and RLIMIT_AS of each
	// process. Without a cgroup see CgroupNone.
	MemoryBytes int64
	// FileSizeBytes is RLIMIT_FSIZE of a test's processes, also bounding
	// its output (default 16 MiB).
	FileSizeBytes int64
	// WorkDirBytes is the size of the tmpfs at /tmp, the only writable
	// directory (default 64 MiB).
	WorkDirBytes int64
	// MaxProcs bounds a program's processes and threads (default 32):
	// RLIMIT_NPROC inside its user namespace and, with a cgroup, the
	// cgroup's pids limit (plus the sandbox's own few processes).
	MaxProcs int
	// FallbackProcs is RLIMIT_NPROC when no cgroup is available (default
	// 8); each process may then map 2·MemoryBytes/FallbackProcs.
	FallbackProcs int
	// MaxFiles is RLIMIT_NOFILE (default 64).
	MaxFiles int
	// CPUs is the cgroup CPU quota of a program in cores (default 1),
	// where a cpu controller is available.
	CPUs int
	// Cgroup selects the cgroup version (default CgroupAuto).
	Cgroup CgroupMode
	// CgroupParent is the cgroup v2 directory under which each program
	// gets its cgroup (default: the cgroup2 mount, e.g. /sys/fs/cgroup).
	CgroupParent string
	// UID is the host uid (and gid) bubblewrap runs as when triage runs as
	// root, so that the sandbox's user namespace maps to an unprivileged
	// host user (default 1950000000: in the range 1879048192–2147483647
	// that neither distributions nor systemd's container ranges allocate,
	// and apart from the 2000000000+ uids the earlier sandbox used). All
	// programs may share it: each has its own user, PID, IPC and network
	// namespaces, so none can see or signal another. Without root the
	// sandbox runs as the caller's uid.
	UID int
	// MeterProvider records triage.sandbox.runs (see metrics.go); nil
	// records nothing.
	MeterProvider metric.MeterProvider
}

// sandboxUID is the uid (and gid) of the program inside its user
// namespace.
const sandboxUID = 1000

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
	if o.FallbackProcs <= 0 {
		o.FallbackProcs = 8
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = 64
	}
	if o.CPUs <= 0 {
		o.CPUs = 1
	}
	if o.UID <= 0 {
		o.UID = 1_950_000_000
	}
}
