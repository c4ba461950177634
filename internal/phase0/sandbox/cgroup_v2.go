package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// findV2 checks that parent (default: the cgroup2 mount) offers the
// memory and pids controllers, enabling them for its children.
func findV2(mounts []cgroupMount, parent string, wantCPU bool) (*cgroups, error) {
	if parent == "" {
		for _, m := range mounts {
			if m.v2 {
				parent = m.point
				break
			}
		}
		if parent == "" {
			return nil, errors.New("no cgroup2 file system mounted")
		}
	}
	b, err := os.ReadFile(filepath.Join(parent, "cgroup.controllers"))
	if err != nil {
		return nil, err
	}
	available := strings.Fields(string(b))
	has := func(ctl string) bool {
		for _, a := range available {
			if a == ctl {
				return true
			}
		}
		return false
	}
	want := []string{"memory", "pids"}
	for _, ctl := range want {
		if !has(ctl) {
			return nil, fmt.Errorf("%s offers the controllers %q, not %s", parent, available, ctl)
		}
	}
	c := &cgroups{version: 2, parents: map[string]string{"": parent}}
	if wantCPU && has("cpu") {
		want = append(want, "cpu")
		c.cpu = true
	}
	if err := enableControllers(parent, want); err != nil {
		return nil, err
	}
	return c, nil
}

// enableControllers turns ctls on in dir's cgroup.subtree_control.
func enableControllers(dir string, ctls []string) error {
	file := filepath.Join(dir, "cgroup.subtree_control")
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	on := map[string]bool{}
	for _, c := range strings.Fields(string(b)) {
		on[c] = true
	}
	var add []string
	for _, c := range ctls {
		if !on[c] {
			add = append(add, "+"+c)
		}
	}
	if len(add) == 0 {
		return nil
	}
	if err := writeFile(file, strings.Join(add, " ")); err != nil {
		return fmt.Errorf("enabling controllers for the children of %s (a cgroup holding processes cannot; set Options.CgroupParent to a delegated cgroup): %w", dir, err)
	}
	return nil
}

// createV2 makes the program's cgroup, sets its limits (memory with no
// swap, pids, a CPU quota) and opens it for SysProcAttr.CgroupFD.
func (c *cgroups) createV2(name string) (*cgroup, error) {
	dir := filepath.Join(c.parents[""], name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	g := &cgroup{version: 2, dirs: []string{dir}, memDir: dir}
	fail := func(err error) (*cgroup, error) {
		return nil, errors.Join(err, g.remove())
	}
	settings := [][2]string{
		{"memory.max", strconv.FormatInt(c.limits.memory, 10)},
		{"memory.swap.max", "0"},
		{"pids.max", strconv.Itoa(c.limits.pids)},
	}
	if c.cpu && c.limits.cpus > 0 {
		settings = append(settings, [2]string{"cpu.max", fmt.Sprintf("%d 100000", 100000*c.limits.cpus)})
	}
	for _, s := range settings {
		path := filepath.Join(dir, s[0])
		if _, err := os.Stat(path); err != nil && s[0] == "memory.swap.max" {
			continue // no swap accounting: memory.max is all there is
		}
		if err := writeFile(path, s[1]); err != nil {
			return fail(err)
		}
	}
	fd, err := os.Open(dir)
	if err != nil {
		return fail(err)
	}
	g.fd = fd
	return g, nil
}
