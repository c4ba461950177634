package sandbox

import (
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

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
