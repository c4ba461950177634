package sandbox

import (
	"fmt"
	"os"
	"strings"
)

// Isolation reports what a Sandbox enforces, as measured when it was
// created. Every program runs in bubblewrap with fresh user, PID,
// network, IPC, UTS and cgroup namespaces, no capabilities, an
// unprivileged uid and a root holding only the interpreter; the fields
// say what depends on the machine.
type Isolation struct {
	// Bubblewrap is the bwrap executable and its version.
	Bubblewrap string
	// Python is the interpreter and PythonVersion its version.
	Python, PythonVersion string
	// HostUID is the host uid the sandbox's user namespace maps to: a
	// dedicated unprivileged uid when triage runs as root, else the
	// caller's.
	HostUID int
	// UserNamespacesDisabled: the program cannot create user namespaces
	// of its own (bwrap --disable-userns).
	UserNamespacesDisabled bool
	// Cgroup is "v1" or "v2" when each program's processes share a cgroup
	// bounding their memory, processes and CPU together; "" when only
	// rlimits apply.
	Cgroup string
	// Memory says how the memory of a program's processes is bounded.
	Memory string
	// Limits lists every limit applied.
	Limits []string
	// Checks are what the harness found of its own isolation (checked
	// again before every program): uid, undumpable, no_new_privs, no
	// capabilities, PID 1, the seccomp filter (and its rlimits).
	Checks string
	// OOMScoreAdj is this process's oom_score_adj once New lowered it (as
	// far as it may) below the sandbox's processes', and OOM says what New
	// did. Test processes raise theirs to 1000 and the harness to 500, so
	// the kernel's OOM killer takes them before this process unless it is
	// at 500 or above (see ServerOOMAtRisk).
	OOMScoreAdj int
	OOM         string
	// Notes explain what could not be used and why.
	Notes []string
}

// ServerOOMAtRisk says whether the kernel's OOM killer may take the
// process running the sandboxes before a sandbox's harness: its
// oom_score_adj is not below the harness's, and it could not lower it.
func (i Isolation) ServerOOMAtRisk() bool { return i.OOMScoreAdj >= harnessOOMScoreAdj }

// String summarises the isolation on one line, for logs.
func (i Isolation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s; python %s (%s); host uid %d", i.Bubblewrap, i.Python, i.PythonVersion, i.HostUID)
	if i.UserNamespacesDisabled {
		b.WriteString("; nested user namespaces disabled")
	}
	fmt.Fprintf(&b, "; memory: %s; limits: %s; checks: %s; this process: %s", i.Memory, strings.Join(i.Limits, ", "), i.Checks, i.OOM)
	for _, n := range i.Notes {
		fmt.Fprintf(&b, "; %s", n)
	}
	return b.String()
}

// isolation describes s from the self-test's ready report.
func (s *Sandbox) isolation(ready frame, notes []string) Isolation {
	iso := Isolation{
		Bubblewrap:             s.bwrap.path + " (" + s.bwrap.version + ")",
		Python:                 s.python.exe,
		PythonVersion:          ready.Python,
		HostUID:                s.hostUID(),
		UserNamespacesDisabled: s.bwrap.disableUserns,
		Notes:                  notes,
	}
	if s.cg != nil {
		iso.Cgroup = fmt.Sprintf("v%d", s.cg.version)
	}
	iso.Memory, iso.Limits = s.lim.describe(s.cg)
	c := ready.Checks
	iso.Checks = fmt.Sprintf("uid %d, undumpable %v, no_new_privs %v, capabilities %s/%s/%s, pid %d, seccomp mode %d", c.UID, c.Undumpable, c.NoNewPrivs, c.CapEff, c.CapPrm, c.CapBnd, c.PID, c.Seccomp)
	if !s.bwrap.disableUserns {
		iso.Notes = append(iso.Notes, "this bubblewrap lacks --disable-userns (0.8.0+): the program may create nested user namespaces")
	}
	return iso
}

// hostUID is the uid bwrap runs as.
func (s *Sandbox) hostUID() int {
	if s.root {
		return s.opts.UID
	}
	return os.Getuid()
}
