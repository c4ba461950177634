package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// cgroupLimits bound all of one program's processes together.
type cgroupLimits struct {
	memory int64 // bytes, memory and swap together
	pids   int   // processes and threads
	cpus   int   // CPU quota in cores, where a cpu controller exists
}

// cgroups makes one cgroup per program, in the hierarchy New found.
type cgroups struct {
	// version is 1 or 2.
	version int
	// parents maps each controller (v1: memory, pids and maybe cpu) to
	// the directory under which program cgroups are made; v2 has one
	// entry, "".
	parents map[string]string
	// cpu: a cpu controller is available.
	cpu    bool
	limits cgroupLimits
	// prefix names this Sandbox's cgroups (see cgroupPrefix).
	prefix string
	seq    atomic.Int64
}

// findCgroups returns the cgroups mode asks for, or nil with notes saying
// why none can be used (CgroupAuto) or an error (a forced version that is
// unavailable).
func findCgroups(mode CgroupMode, v2Parent string, lim cgroupLimits) (*cgroups, []string, error) {
	if mode == CgroupNone {
		return nil, []string{"cgroups disabled by Options.Cgroup"}, nil
	}
	mounts, procs, err := readCgroupInfo()
	if err != nil {
		if mode == CgroupAuto {
			return nil, []string{err.Error()}, nil
		}
		return nil, nil, err
	}
	var notes []string
	try := func(version int) *cgroups {
		var c *cgroups
		var err error
		if version == 1 {
			c, err = findV1(mounts, procs)
		} else {
			c, err = findV2(mounts, v2Parent, lim.cpus > 0)
		}
		if err == nil {
			c.limits = lim
			c.prefix, err = cgroupPrefix()
		}
		if err == nil {
			// Creating and removing one proves we may.
			var g *cgroup
			if g, err = c.create(); err == nil {
				err = g.remove()
			}
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("cgroup v%d: %v", version, err))
			return nil
		}
		return c
	}
	switch mode {
	case CgroupV1, CgroupV2:
		v := 1
		if mode == CgroupV2 {
			v = 2
		}
		if c := try(v); c != nil {
			return c, c.removeStale(), nil
		}
		return nil, nil, fmt.Errorf("sandbox: %s", strings.Join(notes, "; "))
	case CgroupAuto:
		for _, v := range []int{1, 2} {
			if c := try(v); c != nil {
				return c, append(notes, c.removeStale()...), nil
			}
		}
		return nil, notes, nil
	}
	return nil, nil, fmt.Errorf("sandbox: unknown cgroup mode %q", mode)
}

// cgroupMount is a cgroup file system mounted on this machine.
type cgroupMount struct {
	root, point string
	v2          bool
	controllers map[string]bool // v1 only
}

// readCgroupInfo reads this process's cgroup mounts and memberships.
func readCgroupInfo() ([]cgroupMount, map[string]string, error) {
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, nil, fmt.Errorf("cgroups: %v", err)
	}
	pc, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, nil, fmt.Errorf("cgroups: %v", err)
	}
	return parseMountinfo(string(mi)), parseProcCgroup(string(pc)), nil
}

// parseMountinfo lists the cgroup and cgroup2 mounts of a
// /proc/<pid>/mountinfo.
func parseMountinfo(data string) []cgroupMount {
	var out []cgroupMount
	for _, line := range strings.Split(data, "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 {
			continue
		}
		m := cgroupMount{root: unescapeMount(f[3]), point: unescapeMount(f[4])}
		switch g[0] {
		case "cgroup2":
			m.v2 = true
		case "cgroup":
			m.controllers = map[string]bool{}
			for _, o := range strings.Split(g[2], ",") {
				m.controllers[o] = true
			}
		default:
			continue
		}
		out = append(out, m)
	}
	return out
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseProcCgroup maps each v1 controller, and "" for v2, to this
// process's cgroup path, from /proc/<pid>/cgroup.
func parseProcCgroup(data string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(data, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out
}

// cgroupDir is where a process's cgroup at path (as /proc/self/cgroup
// shows it) lives under mount m.
func cgroupDir(m cgroupMount, path string) string {
	rel := path
	if m.root != "/" && within(path, m.root) {
		rel = strings.TrimPrefix(path, m.root)
	}
	return filepath.Join(m.point, rel)
}

// cgroup is one program's cgroup (v1: one directory per controller).
type cgroup struct {
	version int
	dirs    []string
	memDir  string   // the memory controller's directory
	fd      *os.File // v2: the directory, for SysProcAttr.CgroupFD
}

// create makes a fresh cgroup with the limits set.
func (c *cgroups) create() (*cgroup, error) {
	name := fmt.Sprintf("%s-%d", c.prefix, c.seq.Add(1))
	if c.version == 1 {
		return c.createV1(name)
	}
	return c.createV2(name)
}

// attach moves pid into a v1 cgroup (a v2 child is placed atomically by
// CgroupFD when it is cloned).
func (g *cgroup) attach(pid int) error {
	if g.version != 1 {
		return nil
	}
	for _, d := range g.dirs {
		if err := writeFile(filepath.Join(d, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
			return err
		}
	}
	return nil
}

// kill SIGKILLs every process in the cgroup (v2: cgroup.kill where the
// kernel has it) until none is left, for at most timeout.
func (g *cgroup) kill(timeout time.Duration) error {
	if g.version == 2 {
		_ = writeFile(filepath.Join(g.dirs[0], "cgroup.kill"), "1")
	}
	deadline := time.Now().Add(timeout)
	for {
		pids, err := g.procs()
		if err != nil {
			return err
		}
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroup %s: %d processes survive SIGKILL", g.dirs[0], len(pids))
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(time.Millisecond)
	}
}

// procs lists the processes in the cgroup.
func (g *cgroup) procs() ([]int, error) {
	var pids []int
	for _, d := range g.dirs {
		b, err := os.ReadFile(filepath.Join(d, "cgroup.procs"))
		if err != nil {
			return nil, err
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids, nil
}

// oomKills counts the processes the kernel killed for exceeding the
// cgroup's memory limit (0 where the kernel does not say).
func (g *cgroup) oomKills() int64 {
	file := "memory.events"
	if g.version == 1 {
		file = "memory.oom_control"
	}
	b, err := os.ReadFile(filepath.Join(g.memDir, file))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "oom_kill" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

// remove deletes the cgroup, which must hold no process; the kernel may
// need a moment after the last one died.
func (g *cgroup) remove() error {
	if g.fd != nil {
		_ = g.fd.Close() // the directory, opened only to start bwrap in it
		g.fd = nil
	}
	var errs []error
	deadline := time.Now().Add(killTimeout)
	for _, d := range g.dirs {
		var err error
		for {
			if err = syscall.Rmdir(d); err == nil || errors.Is(err, syscall.ENOENT) {
				err = nil
				break
			}
			if !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("remove cgroup %s: %w", d, err))
		}
	}
	return errors.Join(errs...)
}

// writeFile writes a cgroup control file.
func writeFile(path, value string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(value)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %q to %s: %w", value, path, err)
	}
	return nil
}

// randomHex returns 2n random hexadecimal digits.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// cgroupNamePrefix begins the name of every cgroup a sandbox makes.
const cgroupNamePrefix = "triage-sandbox-"

// cgroupPrefix names the cgroups of one Sandbox:
// triage-sandbox-<pid>.<start>-<random>, then -<n> for each program, where
// pid and start (in clock ticks after boot) identify this process, so
// that a later one can tell whether the owner of a cgroup still lives.
func cgroupPrefix() (string, error) {
	pid := os.Getpid()
	start, err := processStart(pid)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s%d.%d-%s", cgroupNamePrefix, pid, start, randomHex(4)), nil
}

// cgroupOwner reads the owner from a cgroup's name as cgroupPrefix makes
// it; ok is false for any other name.
func cgroupOwner(name string) (pid int, start uint64, ok bool) {
	rest, found := strings.CutPrefix(name, cgroupNamePrefix)
	parts := strings.Split(rest, "-")
	if !found || len(parts) != 3 {
		return 0, 0, false
	}
	p, s, found := strings.Cut(parts[0], ".")
	pid, err1 := strconv.Atoi(p)
	start, err2 := strconv.ParseUint(s, 10, 64)
	if _, err3 := strconv.Atoi(parts[2]); !found || err1 != nil || err2 != nil || err3 != nil || pid <= 0 {
		return 0, 0, false
	}
	return pid, start, true
}

// processStart is when process pid started, in clock ticks after boot
// (field 22 of /proc/<pid>/stat).
func processStart(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name, in parentheses, may hold spaces: count from its end.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 20 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	return strconv.ParseUint(f[19], 10, 64)
}

// ownerAlive reports whether the process that made a cgroup of this name
// still runs (same pid, same start: a reused pid is another process).
func ownerAlive(pid int, start uint64) bool {
	got, err := processStart(pid)
	return err == nil && got == start
}

// removeStale removes, in each hierarchy, the sandbox cgroups whose owner
// is dead (a process killed with SIGKILL cannot remove its own), killing
// whatever is left in them; a live process's cgroups, and any other
// directory, are left alone. It returns notes on what it did.
func (c *cgroups) removeStale() []string {
	var notes []string
	for _, parent := range c.parents {
		ents, err := os.ReadDir(parent)
		if err != nil {
			notes = append(notes, fmt.Sprintf("looking for stale cgroups: %v", err))
			continue
		}
		for _, e := range ents {
			pid, start, ok := cgroupOwner(e.Name())
			if !e.IsDir() || !ok || ownerAlive(pid, start) {
				continue
			}
			g := &cgroup{version: c.version, dirs: []string{filepath.Join(parent, e.Name())}}
			if err := errors.Join(g.kill(killTimeout), g.remove()); err != nil {
				notes = append(notes, fmt.Sprintf("stale cgroup of the dead process %d: %v", pid, err))
				continue
			}
			notes = append(notes, fmt.Sprintf("removed the stale cgroup %s (its process, pid %d started at tick %d, is gone)", g.dirs[0], pid, start))
		}
	}
	return notes
}
