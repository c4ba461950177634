package sandbox

import (
	"strings"
	"testing"
)

func TestBubblewrapArgs(t *testing.T) {
	bw := bubblewrap{path: "/usr/bin/bwrap", disableUserns: true}
	view := &rootView{binds: []string{"/opt/py/bin/python3.12", "/opt/py/lib/python3.12", "/usr/lib/x86_64-linux-gnu/libc.so.6"},
		links: map[string]string{"/lib64": "usr/lib64", "/opt/py/bin/python3": "python3.12"}}
	py := interpreter{exe: "/opt/py/bin/python3.12", view: view}
	args := bw.args(py, 64<<20, true)
	joined := " " + strings.Join(args, " ") + " "
	for _, want := range []string{
		"--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup",
		"--disable-userns", "--die-with-parent", "--new-session", "--as-pid-1", "--clearenv", "--cap-drop ALL",
		"--uid 1000", "--gid 1000", "--proc /proc", "--size 67108864 --perms 0700 --tmpfs /tmp", "--remount-ro /",
		"--chdir /tmp", "--info-fd 5", "--block-fd 6", "--seccomp 7", "--symlink usr/lib64 /lib64", "--symlink python3.12 /opt/py/bin/python3", "-- /opt/py/bin/python3.12 -B -s -c",
	} {
		if !strings.Contains(joined, " "+want+" ") {
			t.Errorf("bwrap arguments lack %q: %s", want, joined)
		}
	}
	// Only the interpreter's view and three device nodes come from the
	// host.
	allowed := map[string]bool{"/dev/null": true, "/dev/zero": true, "/dev/urandom": true}
	for _, b := range view.binds {
		allowed[b] = true
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		switch a {
		case "--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try":
			if src := args[i+1]; !allowed[src] || args[i+2] != src {
				t.Errorf("%s %s %s: binds something of the host beyond the interpreter", a, args[i+1], args[i+2])
			}
			if a != "--ro-bind" && a != "--dev-bind" {
				t.Errorf("%s: every host path is bound read-only", a)
			}
			if a == "--dev-bind" && !strings.HasPrefix(args[i+1], "/dev/") {
				t.Errorf("%s %s: only device nodes are dev-bound", a, args[i+1])
			}
		case "--dev", "--bind-fd", "--ro-bind-fd", "--share-net":
			t.Errorf("unexpected %s", a)
		}
	}
}

func TestWithin(t *testing.T) {
	if !within("/usr/lib", "/usr") || within("/usrx", "/usr") || !within("/usr", "/usr") {
		t.Error("within")
	}
}
