package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseMountinfo(t *testing.T) {
	data := `25 30 0:22 / /sys rw,nosuid - sysfs sysfs rw
35 25 0:30 / /sys/fs/cgroup ro - tmpfs tmpfs ro,mode=755
36 35 0:31 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw,nsdelegate
40 35 0:35 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory
41 35 0:36 /docker/abc /sys/fs/cgroup/cpu\040cpuacct rw - cgroup cgroup rw,cpu,cpuacct
garbage line
`
	got := parseMountinfo(data)
	want := []cgroupMount{
		{root: "/", point: "/sys/fs/cgroup/unified", v2: true},
		{root: "/", point: "/sys/fs/cgroup/memory", controllers: map[string]bool{"rw": true, "memory": true}},
		{root: "/docker/abc", point: "/sys/fs/cgroup/cpu cpuacct", controllers: map[string]bool{"rw": true, "cpu": true, "cpuacct": true}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestParseProcCgroup(t *testing.T) {
	got := parseProcCgroup("12:pids:/a\n4:memory:/process_api/x\n3:cpu,cpuacct:/b\n1:name=systemd:/\n0::/user.slice\n")
	want := map[string]string{"pids": "/a", "memory": "/process_api/x", "cpu": "/b", "cpuacct": "/b", "name=systemd": "/", "": "/user.slice"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestCgroupDir(t *testing.T) {
	cases := []struct {
		mount cgroupMount
		path  string
		want  string
	}{
		{cgroupMount{root: "/", point: "/sys/fs/cgroup/memory"}, "/process_api/x", "/sys/fs/cgroup/memory/process_api/x"},
		{cgroupMount{root: "/", point: "/sys/fs/cgroup/pids"}, "/", "/sys/fs/cgroup/pids"},
		// A container's bind mount of its own cgroup.
		{cgroupMount{root: "/docker/abc", point: "/sys/fs/cgroup/memory"}, "/docker/abc/sub", "/sys/fs/cgroup/memory/sub"},
	}
	for _, c := range cases {
		if got := cgroupDir(c.mount, c.path); got != c.want {
			t.Errorf("cgroupDir(%+v, %q) = %q, want %q", c.mount, c.path, got, c.want)
		}
	}
}

// TestCgroupV1 creates a program cgroup in the v1 hierarchies, checks its
// limits, puts a process in it and kills and removes it.
func TestCgroupV1(t *testing.T) {
	if !cgroupsUsable(t, CgroupV1) {
		t.Skip("cgroup v1 is not usable on this machine")
	}
	c, _, err := findCgroups(CgroupV1, "", cgroupLimits{memory: 1 << 30, pids: 35, cpus: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.create()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"memory.limit_in_bytes": "1073741824", "pids.max": "35"}
	if _, err := os.Stat(filepath.Join(g.memDir, "memory.memsw.limit_in_bytes")); err == nil {
		want["memory.memsw.limit_in_bytes"] = "1073741824"
	}
	if c.cpu {
		want["cpu.cfs_quota_us"] = "100000"
	}
	for file, value := range want {
		found := false
		for _, d := range g.dirs {
			if b, err := os.ReadFile(filepath.Join(d, file)); err == nil {
				found = true
				if strings.TrimSpace(string(b)) != value {
					t.Errorf("%s = %q, want %s", file, b, value)
				}
			}
		}
		if !found {
			t.Errorf("%s not found in %v", file, g.dirs)
		}
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if err := g.attach(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if pids, err := g.procs(); err != nil || len(pids) == 0 {
		t.Errorf("procs after attach: %v, %v", pids, err)
	}
	go cmd.Wait()
	if err := g.kill(killTimeout); err != nil {
		t.Fatal(err)
	}
	if err := g.remove(); err != nil {
		t.Fatal(err)
	}
	for _, d := range g.dirs {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s still exists", d)
		}
	}
}

// TestCgroupV2Placement checks the v2 mechanics on this machine's cgroup2
// mount even where it has no controllers (a hybrid machine): a child
// started with CgroupFD is in the cgroup from its first instruction, and
// cgroup.kill and removal work. Limits are checked by TestResourceLimits
// where v2 controllers exist.
func TestCgroupV2Placement(t *testing.T) {
	mounts, _, err := readCgroupInfo()
	if err != nil {
		t.Fatal(err)
	}
	var parent string
	for _, m := range mounts {
		if m.v2 {
			parent = m.point
		}
	}
	if parent == "" || os.Geteuid() != 0 {
		t.Skip("no cgroup2 mount writable here")
	}
	dir := filepath.Join(parent, "triage-sandbox-test-"+randomHex(4))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("cannot create a cgroup under %s: %v", parent, err)
	}
	fd, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	g := &cgroup{version: 2, dirs: []string{dir}, memDir: dir, fd: fd}
	defer g.remove()
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		t.Skip("this kernel has no cgroup.kill (5.14+)")
	}
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: int(fd.Fd())}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "cgroup"))
	if !strings.Contains(string(b), "0::/"+filepath.Base(dir)) {
		t.Errorf("the child's cgroups: %s, want %s", b, filepath.Base(dir))
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if err := g.kill(killTimeout); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
			t.Errorf("the child ended with %v, want SIGKILL", err)
		}
	case <-time.After(time.Minute): // a hang, not slowness
		t.Fatal("the child survived cgroup.kill")
	}
	if err := g.remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s still exists", dir)
	}
}

func TestCgroupOwner(t *testing.T) {
	prefix, err := cgroupPrefix()
	if err != nil {
		t.Fatal(err)
	}
	pid, start, ok := cgroupOwner(prefix + "-7")
	if !ok || pid != os.Getpid() || !ownerAlive(pid, start) {
		t.Errorf("%s: owner %d %d %v, want this live process", prefix, pid, start, ok)
	}
	for _, name := range []string{"triage-sandbox-1a2b3c4d-1", "triage-sandbox-test-1a2b3c4d", "triage-sandbox-12.x-ab-1",
		"triage-sandbox-12.34-ab", "other-12.34-ab-1", "triage-sandbox-0.34-ab-1"} {
		if _, _, ok := cgroupOwner(name); ok {
			t.Errorf("%s: read as a sandbox cgroup with an owner", name)
		}
	}
}

// TestStaleCgroupsRemoved: cgroups named as a sandbox names them whose
// owner is dead (a process killed with SIGKILL leaves them) are removed
// when a sandbox starts, with any process left in them; those of live
// owners, and other directories, stay. Not parallel: a sandbox started
// by another test would remove them first.
func TestStaleCgroupsRemoved(t *testing.T) {
	for _, mode := range []CgroupMode{CgroupV1, CgroupV2} {
		t.Run(string(mode), func(t *testing.T) {
			if !cgroupsUsable(t, mode) {
				t.Skipf("cgroup %s is not usable on this machine", mode)
			}
			c, _, err := findCgroups(mode, "", cgroupLimits{memory: 1 << 30, pids: 40, cpus: 1})
			if err != nil {
				t.Fatal(err)
			}
			// A dead owner: a process that ran and was reaped.
			gone := exec.Command("true")
			if err := gone.Run(); err != nil {
				t.Fatal(err)
			}
			// A live owner other than this process.
			sleeper := exec.Command("sleep", "600")
			if err := sleeper.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
			sleeperStart, err := processStart(sleeper.Process.Pid)
			if err != nil {
				t.Fatal(err)
			}
			ourStart, err := processStart(os.Getpid())
			if err != nil {
				t.Fatal(err)
			}
			stale := []string{
				fmt.Sprintf("triage-sandbox-%d.%d-0badc0de-1", gone.Process.Pid, ourStart),
				// This process's pid with another start: a reused pid.
				fmt.Sprintf("triage-sandbox-%d.%d-0badc0de-2", os.Getpid(), ourStart+1),
			}
			live := []string{
				fmt.Sprintf("triage-sandbox-%d.%d-0badc0de-3", os.Getpid(), ourStart),
				fmt.Sprintf("triage-sandbox-%d.%d-0badc0de-4", sleeper.Process.Pid, sleeperStart),
				"triage-sandbox-0badc0de-5", // an earlier naming: owner unknown
			}
			var staleDirs, liveDirs []string
			for _, parent := range c.parents {
				for _, name := range stale {
					staleDirs = append(staleDirs, filepath.Join(parent, name))
				}
				for _, name := range live {
					liveDirs = append(liveDirs, filepath.Join(parent, name))
				}
			}
			for _, d := range append(staleDirs, liveDirs...) {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			defer func() {
				for _, d := range append(staleDirs, liveDirs...) {
					syscall.Rmdir(d)
				}
			}()
			// A process left in a stale cgroup (one per hierarchy is enough
			// for v1: the first's).
			left := exec.Command("sleep", "600")
			if err := left.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { left.Process.Kill() }()
			exited := make(chan struct{})
			go func() { left.Wait(); close(exited) }()
			if err := writeFile(filepath.Join(staleDirs[0], "cgroup.procs"), strconv.Itoa(left.Process.Pid)); err != nil {
				t.Fatal(err)
			}

			s := newSandbox(t, Options{Cgroup: mode})
			for _, d := range staleDirs {
				if _, err := os.Stat(d); err == nil {
					t.Errorf("the stale cgroup %s is still there", d)
				}
			}
			for _, d := range liveDirs {
				if _, err := os.Stat(d); err != nil {
					t.Errorf("the cgroup %s of a live (or unknown) owner was removed: %v", d, err)
				}
			}
			select {
			case <-exited:
			case <-time.After(time.Minute): // a hang, not slowness
				t.Errorf("the process left in a stale cgroup was not killed")
			}
			t.Logf("notes: %v", s.Isolation().Notes)
		})
	}
}
