package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// findV1 locates the cgroup v1 memory and pids hierarchies (and cpu, if
// mounted): program cgroups go under this process's own cgroup in each, so
// they stay within any limit it is under.
func findV1(mounts []cgroupMount, procs map[string]string) (*cgroups, error) {
	c := &cgroups{version: 1, parents: map[string]string{}}
	for _, ctl := range []string{"memory", "pids", "cpu"} {
		for _, m := range mounts {
			if m.v2 || !m.controllers[ctl] {
				continue
			}
			path, ok := procs[ctl]
			if !ok {
				continue
			}
			c.parents[ctl] = cgroupDir(m, path)
			break
		}
	}
	for _, ctl := range []string{"memory", "pids"} {
		if _, ok := c.parents[ctl]; !ok {
			return nil, fmt.Errorf("no %s controller mounted", ctl)
		}
	}
	_, c.cpu = c.parents["cpu"]
	return c, nil
}

// createV1 makes the program's cgroup in each v1 hierarchy and sets its
// limits: memory and memory+swap, pids, and a CPU quota.
func (c *cgroups) createV1(name string) (*cgroup, error) {
	g := &cgroup{version: 1}
	fail := func(err error) (*cgroup, error) {
		return nil, errors.Join(err, g.remove())
	}
	for _, ctl := range []string{"memory", "pids", "cpu"} {
		parent, ok := c.parents[ctl]
		if !ok {
			continue
		}
		dir := filepath.Join(parent, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return fail(err)
		}
		g.dirs = append(g.dirs, dir)
		var err error
		switch ctl {
		case "memory":
			g.memDir = dir
			mem := strconv.FormatInt(c.limits.memory, 10)
			err = writeFile(filepath.Join(dir, "memory.limit_in_bytes"), mem)
			if _, serr := os.Stat(filepath.Join(dir, "memory.memsw.limit_in_bytes")); err == nil && serr == nil {
				// Swap accounting is on: memory and swap together.
				err = writeFile(filepath.Join(dir, "memory.memsw.limit_in_bytes"), mem)
			}
		case "pids":
			err = writeFile(filepath.Join(dir, "pids.max"), strconv.Itoa(c.limits.pids))
		case "cpu":
			if c.limits.cpus > 0 {
				err = writeFile(filepath.Join(dir, "cpu.cfs_period_us"), "100000")
				if err == nil {
					err = writeFile(filepath.Join(dir, "cpu.cfs_quota_us"), strconv.Itoa(100000*c.limits.cpus))
				}
			}
		}
		if err != nil {
			return fail(err)
		}
	}
	return g, nil
}
