package sandbox

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/phase0/benchdata"
)

// Escape attempts: each program reports what it could reach, and must
// report that it reached nothing (the expected output); host-side checks
// confirm where they can.

// repoRoot is the checkout this test runs from.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("repository root not found at %s: %v", dir, err)
	}
	return dir
}

// listenUnix listens on a Unix socket and counts the connections it
// accepts.
func listenUnix(t *testing.T, addr string) *atomic.Int32 {
	t.Helper()
	ln, err := net.Listen("unix", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	return &accepted
}

func TestHostUnixSocketsUnreachable(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	// Our own sockets, which exist whatever the machine runs: one in the
	// file system (under the host's /tmp), one abstract.
	own := filepath.Join(t.TempDir(), "host.sock")
	abstract := fmt.Sprintf("@triage-sandbox-test-%d", time.Now().UnixNano())
	acceptedFS, acceptedAbstract := listenUnix(t, own), listenUnix(t, abstract)
	// The host's database sockets (PostgreSQL with trust authentication
	// ran COPY … FROM PROGRAM for an earlier sandbox): tried whether or
	// not this machine runs the databases.
	targets := []string{own, "\x00" + abstract[1:], "/var/run/postgresql/.s.PGSQL.5432", "/run/postgresql/.s.PGSQL.5432", "/run/mysqld/mysqld.sock", "/var/run/mysqld/mysqld.sock", "/run/dbus/system_bus_socket", "/var/run/docker.sock"}
	quoted, _ := json.Marshal(targets)
	program := `import socket
res = []
for path in ` + string(quoted) + `:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(3)
    try:
        s.connect(path)
        res.append("connected")
    except OSError:
        res.append("unreachable")
print(" ".join(res))
`
	want := strings.TrimSpace(strings.Repeat("unreachable ", len(targets)))
	if v := run(t, s, program, stdinSpec("", want)); !v.Correct() {
		t.Errorf("got %+v", v)
	}
	if n := acceptedFS.Load() + acceptedAbstract.Load(); n != 0 {
		t.Errorf("the host's sockets accepted %d connections from the sandbox", n)
	}
	// The same program outside the sandbox would connect: the check works.
	if c, err := net.Dial("unix", own); err != nil {
		t.Errorf("positive control: %v", err)
	} else {
		c.Close()
	}
}

func TestNetworkUnreachable(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	program := fmt.Sprintf(`import socket
res = []
for addr in [("127.0.0.1", %d), ("1.1.1.1", 53), ("::1", %d), ("8.8.8.8", 443)]:
    try:
        socket.create_connection(addr, timeout=3).close()
        res.append("connected")
    except OSError:
        res.append("blocked")
try:
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.sendto(b"x", ("1.1.1.1", 53))
    res.append("sent")
except OSError:
    res.append("blocked")
try:
    socket.getaddrinfo("example.com", 80)
    res.append("resolved")
except OSError:
    res.append("blocked")
print(" ".join(res))
`, port, port)
	if v := run(t, s, program, stdinSpec("", "blocked blocked blocked blocked blocked blocked")); !v.Correct() {
		t.Errorf("got %+v", v)
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the listener accepted %d connections", n)
	}
}

// TestMinimalRoot: the program sees /usr (read-only, with the usual
// links into it), a private /proc, three device nodes and its /tmp —
// nothing else of the host.
func TestMinimalRoot(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	root := []string{"dev", "proc", "tmp", "usr"}
	for _, d := range []string{"bin", "sbin", "lib", "lib32", "lib64", "libx32"} {
		if _, err := os.Lstat("/" + d); err == nil {
			root = append(root, d)
		}
	}
	sort.Strings(root)
	repo := repoRoot(t)
	absent := []string{"/etc/passwd", "/etc/shadow", "/etc/hosts", "/root", "/home", "/var", "/run", "/sys", "/boot", "/opt", "/srv", "/mnt", "/media",
		"/var/run/postgresql", repo, filepath.Join(repo, "testdata/benchmarks"), benchdata.Path(t, "lcb/lcb_sample.jsonl"), filepath.Dir(os.Args[0])}
	if wd, err := os.Getwd(); err == nil {
		absent = append(absent, wd)
	}
	quoted, _ := json.Marshal(absent)
	program := `import os
print(" ".join(sorted(os.listdir("/"))))
print(" ".join(sorted(os.listdir("/dev"))))
print(" ".join(p for p in ` + string(quoted) + ` if os.path.exists(p)) or "nothing of the host")
pids = [p for p in os.listdir("/proc") if p.isdigit()]
print("few processes" if len(pids) <= 3 else "processes: " + " ".join(pids))
mounts = {}
for line in open("/proc/self/mountinfo"):
    f = line.split()
    mounts[f[4]] = f[5].split(",")[0]
print(" ".join("%s:%s" % (m, mounts[m]) for m in sorted(mounts)))
`
	mounts := []string{"/:ro", "/dev/null:rw", "/dev/urandom:rw", "/dev/zero:rw", "/proc:rw", "/tmp:rw", "/usr:ro"}
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		if fi, err := os.Lstat(d); err == nil && fi.Mode()&os.ModeSymlink == 0 {
			mounts = append(mounts, d+":ro")
		}
	}
	sort.Strings(mounts)
	want := strings.Join([]string{
		strings.Join(root, " "),
		"fd null stderr stdin stdout urandom zero",
		"nothing of the host",
		"few processes",
		strings.Join(mounts, " "),
	}, "\n")
	if v := run(t, s, program, stdinSpec("", want)); !v.Correct() {
		t.Errorf("got %+v", v)
	}
}

func TestWritesOutsideWorkDirFail(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{WorkDirBytes: 8 << 20})
	name := fmt.Sprintf("triage-sandbox-escape-%d", time.Now().UnixNano())
	repo := repoRoot(t)
	hostTmp := t.TempDir()
	targets := []string{"/" + name, "/usr/" + name, "/etc/" + name, "/root/" + name, "/home/" + name, "/var/tmp/" + name, "/dev/" + name,
		"/proc/" + name, filepath.Join(repo, name), filepath.Join(hostTmp, name), "/dev/shm/" + name}
	for _, p := range targets {
		t.Cleanup(func() { os.Remove(p) })
	}
	quoted, _ := json.Marshal(targets)
	program := "import os\nempty = os.listdir('.') == []\nbad = []\nfor p in " + string(quoted) + ":\n" +
		"    try:\n        with open(p, 'w') as f:\n            f.write('x')\n        bad.append(p)\n    except OSError:\n        pass\n" +
		"with open('inside.txt', 'w') as f:\n    f.write('fine')\n" +
		"os.mkdir('sub')\nwith open('sub/x', 'w') as f:\n    f.write('y')\n" +
		"try:\n    with open('big', 'wb') as f:\n        for _ in range(16):\n            f.write(bytes(1 << 20))\n    full = 'not full'\nexcept OSError:\n    full = 'full'\n" +
		"print(os.getcwd(), 'empty' if empty else 'not empty', open('inside.txt').read(), ','.join(bad) or 'none', full)\n"
	if v := run(t, s, program, stdinSpec("", "/tmp empty fine none full")); !v.Correct() {
		t.Errorf("got %+v", v)
	}
	for _, p := range targets {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was created on the host", p)
		}
	}
	// Each program gets a fresh /tmp: the last one's files are gone.
	if v := run(t, s, "import os\nprint(os.listdir('/tmp'))", stdinSpec("", "[]")); !v.Correct() {
		t.Errorf("second program: %+v", v)
	}
}

func TestNoPrivileges(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	program := `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
res = ["uid=%d gid=%d groups=%s" % (os.getuid(), os.getgid(), os.getgroups())]
with open("/proc/self/status") as f:
    caps = [l.split()[1] for l in f if l.startswith(("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"))]
if caps != ["0000000000000000"] * 5:
    res.append("capabilities " + " ".join(caps))
for name, call in [
    ("setuid", lambda: os.setuid(0)),
    ("unshare-user", lambda: libc.unshare(0x10000000)),
    ("unshare-net", lambda: libc.unshare(0x40000000)),
    ("mount", lambda: libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)),
    ("chroot", lambda: libc.chroot(b"/tmp")),
    ("sethostname", lambda: libc.sethostname(b"x", 1)),
]:
    try:
        if call() in (None, 0):
            res.append(name)
    except OSError:
        pass
for path in ("/proc/sys/kernel/hostname", "/proc/sys/user/max_user_namespaces", "/proc/sysrq-trigger"):
    try:
        with open(path, "w") as f:
            f.write("1")
        res.append("wrote " + path)
    except OSError:
        pass
print(" ".join(res))
`
	if v := run(t, s, program, stdinSpec("", "uid=1000 gid=1000 groups=[]")); !v.Correct() {
		t.Errorf("got %+v", v)
	}
}

// A program trying every way it has to run a command on the host: the
// marker it would create must not appear.
func TestNoHostCommand(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	marker := filepath.Join(os.TempDir(), fmt.Sprintf("triage-sandbox-marker-%d", time.Now().UnixNano()))
	t.Cleanup(func() { os.Remove(marker) })
	program := escapeProgram(marker)
	// The program prints "tried" once it has tried everything: a verdict
	// other than correct means it did not get that far, and proves nothing.
	if v := run(t, s, program, stdinSpec("", "tried")); !v.Correct() {
		t.Errorf("the escape attempts did not run to the end: %+v", v)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("the program created %s on the host", marker)
	}
}

// escapeProgram tries to create marker on the host: directly, through
// /proc/1/root, and through the local databases' sockets (PostgreSQL's
// COPY … FROM PROGRAM, as the earlier sandbox allowed).
func escapeProgram(marker string) string {
	return fmt.Sprintf(`import os, socket, struct
MARKER = %q
for path in (MARKER, "/proc/1/root" + MARKER, "/proc/1/cwd/" + os.path.basename(MARKER)):
    try:
        open(path, "w").write("escaped")
    except OSError:
        pass
def pg(path):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(2)
    s.connect(path)
    params = b"user\x00postgres\x00database\x00postgres\x00\x00"
    s.sendall(struct.pack("!ii", 8 + len(params), 196608) + params)
    s.recv(4096)
    q = ("COPY (SELECT 1) TO PROGRAM 'touch %%s'" %% MARKER).encode() + b"\x00"
    s.sendall(b"Q" + struct.pack("!i", 4 + len(q)) + q)
    s.recv(4096)
for path in ("/var/run/postgresql/.s.PGSQL.5432", "/run/postgresql/.s.PGSQL.5432"):
    try:
        pg(path)
    except OSError:
        pass
print("tried")
`, marker)
}
