package sandbox

import (
	"context"
	"fmt"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"
)

// bubblewrap is the bwrap executable and what it supports.
type bubblewrap struct {
	path    string
	version string
	// disableUserns: bwrap has --disable-userns (0.8.0 and later), which
	// stops the program from creating user namespaces of its own.
	disableUserns bool
}

// installHint tells how to get bubblewrap.
const installHint = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) or set Options.Bubblewrap"

// findBubblewrap locates bwrap (explicit, else on PATH, else
// /usr/bin/bwrap) and asks it for its version and options.
func findBubblewrap(explicit string) (bubblewrap, error) {
	path := explicit
	if path == "" {
		path = "/usr/bin/bwrap"
		if p, err := exec.LookPath("bwrap"); err == nil {
			path = p
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return bubblewrap{}, fmt.Errorf("sandbox: code grading needs bubblewrap, but %s cannot be run (%v): %s", path, err, installHint)
	}
	help, _ := exec.CommandContext(ctx, path, "--help").CombinedOutput()
	return bubblewrap{
		path:          path,
		version:       strings.TrimSpace(string(out)),
		disableUserns: strings.Contains(string(help), "--disable-userns"),
	}, nil
}

// Descriptors bwrap itself consumes, as its command sees them. Before
// them, fd 3 (Go → harness: the harness, its config, then one test per
// line) and fd 4 (harness → Go: length-prefixed JSON frames) go on to the
// harness (spawn's ExtraFiles order; bootstrap and harness.py open them).
const (
	infoFD    = 5 // bwrap → Go: {"child-pid": …}
	blockFD   = 6 // Go → bwrap: one byte once the child is in its cgroup
	seccompFD = 7 // Go → bwrap: the sandbox's seccomp filter, then EOF
)

// programEnv is the program's whole environment.
func programEnv() map[string]string {
	return map[string]string{
		"PATH":                    "/usr/bin:/bin",
		"HOME":                    "/tmp",
		"TMPDIR":                  "/tmp",
		"LANG":                    "C.UTF-8",
		"PYTHONDONTWRITEBYTECODE": "1",
		"PYTHONHASHSEED":          "0",
	}
}

// args is bwrap's command line for one program: fresh namespaces of every
// kind, no capabilities, an unprivileged uid, a seccomp filter (read from
// seccompFD) when seccomp is set, and a root holding only the
// interpreter's view (read-only), a private /proc, three device nodes and
// a small writable /tmp.
func (b bubblewrap) args(py interpreter, workDirBytes int64, seccomp bool) []string {
	a := []string{
		"--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-net",
		"--unshare-uts", "--unshare-cgroup",
	}
	if b.disableUserns {
		a = append(a, "--disable-userns")
	}
	a = append(a,
		"--uid", strconv.Itoa(sandboxUID), "--gid", strconv.Itoa(sandboxUID),
		"--hostname", "sandbox",
		"--die-with-parent", "--new-session",
		// The interpreter is the sandbox's PID 1: bwrap installs no init of
		// its own, which would run as the program's uid, dumpable and
		// without the rlimits Go sets on PID 1.
		"--as-pid-1",
		"--cap-drop", "ALL",
		"--clearenv",
	)
	env := programEnv()
	// glibc reserves 64 MiB of address space per malloc arena and thread;
	// under RLIMIT_AS a few threads would exhaust it. The harness drops
	// the variable from os.environ once the allocator has read it.
	env["MALLOC_ARENA_MAX"] = "2"
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		a = append(a, "--setenv", k, env[k])
	}
	a = append(a, py.view.args()...)
	a = append(a, "--proc", "/proc")
	for _, dev := range []string{"/dev/null", "/dev/zero", "/dev/urandom"} {
		a = append(a, "--dev-bind", dev, dev)
	}
	for _, l := range [][2]string{{"/proc/self/fd", "/dev/fd"}, {"/proc/self/fd/0", "/dev/stdin"}, {"/proc/self/fd/1", "/dev/stdout"}, {"/proc/self/fd/2", "/dev/stderr"}} {
		a = append(a, "--symlink", l[0], l[1])
	}
	a = append(a,
		"--size", strconv.FormatInt(workDirBytes, 10), "--perms", "0700", "--tmpfs", "/tmp",
		"--remount-ro", "/",
		"--chdir", "/tmp",
		"--info-fd", strconv.Itoa(infoFD),
		"--block-fd", strconv.Itoa(blockFD),
	)
	if seccomp {
		a = append(a, "--seccomp", strconv.Itoa(seccompFD))
	}
	a = append(a,
		"--",
		py.exe, "-B", "-s", "-c", bootstrap,
	)
	return a
}
