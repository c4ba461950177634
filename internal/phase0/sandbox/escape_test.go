package sandbox

import (
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestMinimalRoot: the program sees the interpreter and what it loads
// (its standard library, the shared libraries, the C.UTF-8 locale),
// read-only, a private /proc, three device nodes and its /tmp — nothing
// else of the host: no /usr/share, no other binary, no /etc, no library
// nobody loads.
func TestMinimalRoot(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	view := s.python.view
	root := map[string]bool{"dev": true, "proc": true, "tmp": true}
	var usrBin []string
	for _, p := range append(slices.Collect(maps.Keys(view.links)), view.binds...) {
		root[strings.Split(p, "/")[1]] = true
		if filepath.Dir(p) == "/usr/bin" {
			usrBin = append(usrBin, filepath.Base(p))
		}
	}
	sort.Strings(usrBin)
	repo := repoRoot(t)
	absent := []string{"/etc", "/etc/passwd", "/root", "/home", "/var", "/run", "/sys", "/boot", "/opt", "/srv", "/mnt", "/media",
		"/usr/share", "/usr/sbin", "/usr/include", "/usr/local", "/usr/libexec", "/usr/lib/python3/dist-packages", "/bin/sh", "/usr/bin/env",
		"/usr/bin/bwrap", "/dev/shm", "/var/run/postgresql", repo, filepath.Join(repo, "testdata/benchmarks"),
		benchdata.Path(t, "lcb/lcb_sample.jsonl"), filepath.Dir(os.Args[0])}
	if wd, err := os.Getwd(); err == nil {
		absent = append(absent, wd)
	}
	// A library of the host that nothing of the interpreter loads.
	if libs, _ := filepath.Glob("/usr/lib/*-linux-gnu/libsystemd.so*"); len(libs) > 0 {
		absent = append(absent, libs[0])
	}
	quoted, _ := json.Marshal(absent)
	const localeLine = `import locale
print(locale.setlocale(locale.LC_CTYPE), "utf8 mode" if sys.flags.utf8_mode else "locale encoding", sys.stdin.encoding, sys.stdin.errors)`
	host := exec.Command(s.python.exe, "-c", "import sys\n"+localeLine)
	host.Env = []string{"LANG=C.UTF-8"}
	out, err := host.Output()
	if err != nil {
		t.Fatal(err)
	}
	hostLocale := strings.TrimSpace(string(out))
	program := `import os, sys
print(" ".join(sorted(os.listdir("/"))))
print(" ".join(sorted(os.listdir("/usr/bin"))))
print(" ".join(sorted(os.listdir("/dev"))))
print(" ".join(p for p in ` + string(quoted) + ` if os.path.lexists(p)) or "nothing of the host")
pids = [p for p in os.listdir("/proc") if p.isdigit()]
print("few processes" if len(pids) <= 2 else "processes: " + " ".join(pids))
rw = []
for line in open("/proc/self/mountinfo"):
    f = line.split()
    if f[5].split(",")[0] == "rw":
        rw.append(f[4])
print(" ".join(sorted(rw)))
` + localeLine + `
try:
    open(os.path.join(os.path.dirname(os.__file__), "x.py"), "w")
    print("the standard library is writable")
except OSError:
    print("the standard library is read-only")
`
	want := strings.Join([]string{
		strings.Join(slices.Sorted(maps.Keys(root)), " "),
		strings.Join(usrBin, " "),
		"fd null stderr stdin stdout urandom zero",
		"nothing of the host",
		"few processes",
		"/dev/null /dev/urandom /dev/zero /proc /tmp",
		// The locale is as on the host with the sandbox's environment.
		hostLocale,
		"the standard library is read-only",
	}, "\n")
	if v := run(t, s, program, stdinSpec("", want)); !v.Correct() {
		t.Errorf("got %+v", v)
	}
	if !slices.Contains(usrBin, filepath.Base(s.python.exe)) {
		t.Errorf("the interpreter %s is not in the view: %v", s.python.exe, usrBin)
	}
}

// stdlibImports imports every extension module of the standard library
// (lib-dynload) and lists those that import.
const stdlibImports = `import importlib, os, sys, sysconfig
ok = []
for f in sorted(os.listdir(sysconfig.get_config_var("DESTSHARED"))):
    name = f.split(".")[0]
    if name.startswith(("_test", "xx", "_xx", "_ctypes_test")) or name in ("readline", "_curses", "_curses_panel"):
        continue
    try:
        importlib.import_module(name)
        ok.append(name)
    except Exception:
        pass
print(" ".join(ok))
`

// Every extension module of the standard library that imports on the
// host imports in the sandbox: the view holds every library they link.
func TestStdlibExtensionsImport(t *testing.T) {
	t.Parallel()
	s := newSandbox(t, Options{})
	out, err := exec.Command(s.python.exe, "-c", stdlibImports).Output()
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimSpace(string(out))
	if !strings.Contains(host, "_ctypes") || !strings.Contains(host, "_decimal") {
		t.Fatalf("the host's interpreter imports only %q", host)
	}
	if got := strings.TrimSpace(outputs(t, s, stdlibImports, "")[0]); got != host {
		t.Errorf("in the sandbox: %s\non the host:    %s", got, host)
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

// seccompProbe tries one call of each class the sandbox's seccomp filters
// refuse, and a few they allow, and prints a JSON object: probe name to
// "ok" or the errno's name. Each probe is a call that an unprivileged
// process may make without a filter (on its own memory, descriptors or
// child), so that only the filter can refuse it.
const seccompProbe = `import ctypes, errno, json, mmap, os, socket, struct, time
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.syscall.argtypes = [ctypes.c_long] * 7
NR = dict(ptrace=101, process_vm_readv=310, process_vm_writev=311, pidfd_open=434, pidfd_getfd=438,
          perf_event_open=298, bpf=321, userfaultfd=323, keyctl=250, add_key=248, request_key=249,
          io_uring_setup=425, shmget=29, shmctl=31, msgget=68, msgctl=71, semget=64, semctl=66,
          mq_open=240, mq_unlink=241, memfd_create=319, memfd_secret=447, kcmp=312, socketpair=53,
          getpid=39)

def call(nr, *args):
    r = libc.syscall(nr, *(list(args) + [0] * (6 - len(args))))
    return r if r != -1 else -ctypes.get_errno()

def sys_(name, *args):
    return call(NR[name], *args)

def addr(b):
    return ctypes.addressof(b)

def closing(r):
    if r >= 0:
        os.close(r)
    return r

def ptrace_own_child():
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        libc.prctl(4, 1, 0, 0, 0)  # dumpable, so that only the filter can refuse
        os.write(w, b"x")
        time.sleep(60)
        os._exit(0)
    os.read(r, 1)
    res = sys_("ptrace", 0x4206, pid)  # PTRACE_SEIZE
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    return res

def process_vm(name):
    src, dst = ctypes.create_string_buffer(b"probe", 8), ctypes.create_string_buffer(8)
    local = (ctypes.c_size_t * 2)(addr(dst), 8)
    remote = (ctypes.c_size_t * 2)(addr(src), 8)
    return sys_(name, os.getpid(), addr(local), 1, addr(remote), 1, 0)

def pidfd_getfd():
    pidfd = sys_("pidfd_open", os.getpid(), 0)
    if pidfd < 0:
        return pidfd
    try:
        return closing(sys_("pidfd_getfd", pidfd, 0, 0))
    finally:
        os.close(pidfd)

def perf_event_open():
    attr = ctypes.create_string_buffer(128)
    struct.pack_into("<IIQ", attr, 0, 1, 128, 0)  # software, CPU clock
    struct.pack_into("<Q", attr, 40, 1 | 1 << 5 | 1 << 6)  # disabled, exclude kernel and hypervisor
    return closing(sys_("perf_event_open", addr(attr), 0, -1, -1, 0))

def bpf():
    attr = ctypes.create_string_buffer(128)
    struct.pack_into("<IIII", attr, 0, 2, 4, 4, 1)  # an array map of one entry
    return closing(sys_("bpf", 0, addr(attr), 128))

def add_key():
    t, d, p = ctypes.create_string_buffer(b"user"), ctypes.create_string_buffer(b"probe"), ctypes.create_string_buffer(b"x")
    return sys_("add_key", addr(t), addr(d), addr(p), 1, -2)  # the process keyring

def request_key():
    t, d = ctypes.create_string_buffer(b"user"), ctypes.create_string_buffer(b"no-such-key")
    return sys_("request_key", addr(t), addr(d), 0, 0)

def io_uring():
    params = ctypes.create_string_buffer(120)
    return closing(sys_("io_uring_setup", 1, addr(params)))

def sysv(get, ctl, *args):
    ident = sys_(get, 0, *args)  # IPC_PRIVATE
    if ident >= 0:
        sys_(ctl, ident, 0, 0) if ctl != "semctl" else sys_(ctl, ident, 0, 0)  # IPC_RMID
    return ident

def mq_open():
    name = ctypes.create_string_buffer(b"probe")
    r = closing(sys_("mq_open", addr(name), os.O_RDWR | os.O_CREAT, 0o600, 0))
    if r >= 0:
        sys_("mq_unlink", addr(name))
    return r

def memfd(name):
    n = ctypes.create_string_buffer(b"probe")
    return closing(sys_(name, addr(n), 0) if name == "memfd_create" else sys_(name, 0))

def sock(family, kind):
    try:
        socket.socket(family, kind).close()
        return 0
    except OSError as e:
        return -e.errno

def pair(family, kind):
    fds = (ctypes.c_int * 2)()
    r = sys_("socketpair", family, kind, 0, addr(fds))
    if r >= 0:
        os.close(fds[0])
        os.close(fds[1])
    return r

def i386_getpid():
    """int 0x80 with eax = 20 (i386 getpid), in a child in case this kernel
    has no 32-bit ABI (the call then faults)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
        m.write(bytes([0xb8, 20, 0, 0, 0, 0xcd, 0x80, 0xc3]))  # mov eax, 20; int 0x80; ret
        f = ctypes.CFUNCTYPE(ctypes.c_int)(addr(ctypes.c_char.from_buffer(m)))
        os.write(w, str(f()).encode())
        os._exit(0)
    os.close(w)
    out = os.read(r, 64)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return "no 32-bit system calls (killed by signal %d)" % os.WTERMSIG(status)
    return int(out)

probes = {
    "ptrace": ptrace_own_child,
    "process_vm_readv": lambda: process_vm("process_vm_readv"),
    "process_vm_writev": lambda: process_vm("process_vm_writev"),
    "pidfd_getfd": pidfd_getfd,
    "kcmp": lambda: sys_("kcmp", os.getpid(), os.getpid(), 0, 0, 0),
    "perf_event_open": perf_event_open,
    "bpf": bpf,
    "userfaultfd": lambda: closing(sys_("userfaultfd", os.O_CLOEXEC | 1)),  # user-mode only
    "keyctl": lambda: sys_("keyctl", 0, -3, 1),  # the session keyring's id
    "add_key": add_key,
    "request_key": request_key,
    "io_uring_setup": io_uring,
    "shmget": lambda: sysv("shmget", "shmctl", 1 << 20, 0o1600),
    "msgget": lambda: sysv("msgget", "msgctl", 0o1600),
    "semget": lambda: sysv("semget", "semctl", 1, 0o1600),
    "mq_open": mq_open,
    "memfd_create": lambda: memfd("memfd_create"),
    "memfd_secret": lambda: memfd("memfd_secret"),
    "socket AF_VSOCK": lambda: sock(socket.AF_VSOCK, socket.SOCK_STREAM),
    "socket AF_NETLINK": lambda: sock(socket.AF_NETLINK, socket.SOCK_RAW),
    "socket AF_PACKET": lambda: sock(socket.AF_PACKET, socket.SOCK_RAW),
    "socketpair AF_VSOCK": lambda: pair(socket.AF_VSOCK, socket.SOCK_STREAM),
    "socketpair AF_NETLINK": lambda: pair(socket.AF_NETLINK, socket.SOCK_RAW),
    "i386 getpid": i386_getpid,
    "x32 getpid": lambda: call(NR["getpid"] | 0x40000000),
    # Allowed:
    "socket AF_UNIX": lambda: sock(socket.AF_UNIX, socket.SOCK_STREAM),
    "socket AF_INET": lambda: sock(socket.AF_INET, socket.SOCK_STREAM),
    "socket AF_INET6": lambda: sock(socket.AF_INET6, socket.SOCK_DGRAM),
    "socketpair AF_UNIX": lambda: pair(socket.AF_UNIX, socket.SOCK_STREAM),
    "getpid": lambda: sys_("getpid"),
}
out = {}
for name, probe in probes.items():
    try:
        r = probe()
    except OSError as e:
        r = -e.errno
    if isinstance(r, str):
        out[name] = r
    else:
        out[name] = "ok" if r >= 0 else errno.errorcode.get(-r, str(-r))
print(json.dumps(out))
`

// TestSeccompRefuses runs seccompProbe in the sandbox and in a control
// sandbox without the seccomp filters: each class must be refused with
// the filter's errno, and each probe that the control allows shows the
// filter at work. (Where this kernel refuses a call without the filter
// too, the test says so; TestSeccompFilterDecisions checks the filter's
// decision for it.)
func TestSeccompRefuses(t *testing.T) {
	t.Parallel()
	refused := map[string]string{
		"ptrace": "EPERM", "process_vm_readv": "EPERM", "process_vm_writev": "EPERM", "pidfd_getfd": "EPERM",
		"kcmp": "EPERM", "perf_event_open": "EPERM", "bpf": "EPERM", "userfaultfd": "EPERM",
		"keyctl": "EPERM", "add_key": "EPERM", "request_key": "EPERM", "io_uring_setup": "EPERM",
		"shmget": "EPERM", "msgget": "EPERM", "semget": "EPERM", "mq_open": "EPERM",
		"memfd_create": "EPERM", "memfd_secret": "EPERM",
		"socket AF_VSOCK": "EAFNOSUPPORT", "socket AF_NETLINK": "EAFNOSUPPORT", "socket AF_PACKET": "EAFNOSUPPORT",
		"socketpair AF_VSOCK": "EAFNOSUPPORT", "socketpair AF_NETLINK": "EAFNOSUPPORT",
		"i386 getpid": "ENOSYS", "x32 getpid": "ENOSYS",
	}
	allowed := []string{"socket AF_UNIX", "socket AF_INET", "socket AF_INET6", "socketpair AF_UNIX", "getpid"}
	// Calls any kernel this runs on allows an unprivileged process, on its
	// own memory, descriptors or child: the control must allow them, or
	// the probe is broken.
	controlMustAllow := []string{"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd",
		"shmget", "msgget", "semget", "memfd_create", "socket AF_NETLINK"}
	decode := func(t *testing.T, out string) map[string]string {
		var m map[string]string
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("probe output %q: %v", out, err)
		}
		return m
	}
	for _, mode := range cgroupModes(t) {
		t.Run("cgroup="+string(mode), func(t *testing.T) {
			got := decode(t, outputs(t, newSandbox(t, Options{Cgroup: mode}), seccompProbe, "")[0])
			control := decode(t, outputs(t, withoutSeccomp(t, Options{Cgroup: mode}), seccompProbe, "")[0])
			for name, want := range refused {
				if name == "i386 getpid" && strings.HasPrefix(control[name], "no 32-bit") {
					t.Logf("%s: not tried: %s without the filter", name, control[name])
					continue
				}
				if got[name] != want {
					t.Errorf("%s: %s in the sandbox, want %s (without the filter: %s)", name, got[name], want, control[name])
				} else if control[name] == want {
					t.Logf("%s: this kernel refuses it without the filter too (%s)", name, control[name])
				}
			}
			for _, name := range append(allowed, controlMustAllow...) {
				if control[name] != "ok" {
					t.Errorf("control: %s: %s, want ok (the probe is broken)", name, control[name])
				}
			}
			for _, name := range allowed {
				if got[name] != "ok" {
					t.Errorf("%s: %s in the sandbox, want it allowed", name, got[name])
				}
			}
		})
	}
}
