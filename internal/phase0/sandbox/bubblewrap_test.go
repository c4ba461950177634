package sandbox

import (
	"strings"
	"testing"
)

func TestBubblewrapArgs(t *testing.T) {
	bw := bubblewrap{path: "/usr/bin/bwrap", disableUserns: true}
	py := interpreter{exe: "/opt/py/bin/python3", binds: []string{"/opt/py"}}
	args := bw.args(py, 64<<20, true)
	joined := " " + strings.Join(args, " ") + " "
	for _, want := range []string{
		"--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup",
		"--disable-userns", "--die-with-parent", "--new-session", "--as-pid-1", "--clearenv", "--cap-drop ALL",
		"--uid 1000", "--gid 1000", "--proc /proc", "--size 67108864 --perms 0700 --tmpfs /tmp", "--remount-ro /",
		"--chdir /tmp", "--info-fd 5", "--block-fd 6", "--seccomp 7", "-- /opt/py/bin/python3 -B -s -c",
	} {
		if !strings.Contains(joined, " "+want+" ") {
			t.Errorf("bwrap arguments lack %q: %s", want, joined)
		}
	}
	// Only the interpreter's directories and three device nodes come from
	// the host.
	allowed := map[string]bool{"/usr": true, "/opt/py": true, "/dev/null": true, "/dev/zero": true, "/dev/urandom": true,
		"/bin": true, "/sbin": true, "/lib": true, "/lib32": true, "/lib64": true, "/libx32": true}
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

func TestInterpreterBinds(t *testing.T) {
	var py interpreter
	for _, d := range []string{"/opt/py/bin", "/opt/py", "/opt/py/lib", "/srv/other"} {
		py.addBind(d)
	}
	if got := strings.Join(py.binds, " "); got != "/opt/py /srv/other" {
		t.Errorf("binds %q, want the outermost directories", got)
	}
	if !within("/usr/lib", "/usr") || within("/usrx", "/usr") || !within("/usr", "/usr") {
		t.Error("within")
	}
}
