package otheruser

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// childEnv marks the process Do starts as nobody.
const childEnv = "TRIAGE_TEST_OTHER_USER"

// nobody is the unprivileged user and group the check runs as under root.
const nobody = 65534

// Child reports whether this process is the copy Do started as nobody: the
// test then calls its check itself and fails if the check does.
func Child() bool { return os.Getenv(childEnv) == "1" }

// Do runs check as an unprivileged user with env ("NAME=value") set, and
// returns its error: in this process when it is not root; as root, by
// running the top-level test t belongs to again as nobody, where the test
// sees Child and calls check. The check reads its inputs from env, which
// must name files nobody may reach (see SharedDir).
func Do(t *testing.T, env []string, check func() error) error {
	t.Helper()
	if os.Geteuid() != 0 {
		for _, kv := range env {
			name, value, _ := strings.Cut(kv, "=")
			t.Setenv(name, value)
		}
		return check()
	}
	bin := filepath.Join(SharedDir(t), "test.bin")
	if err := copySelf(bin); err != nil {
		t.Fatal(err)
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	cmd := exec.Command(bin, "-test.run", "^"+top+"$", "-test.count", "1")
	cmd.Env = append([]string{childEnv + "=1", "HOME=/nonexistent", "PATH=/usr/bin:/bin", "TMPDIR=" + os.TempDir()}, env...)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("as nobody: %v: %s", err, out)
	}
	return nil
}

// SharedDir returns a new temporary directory that any user may enter and
// write, removed (made writable again first) when t ends.
func SharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "triage-otheruser-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(path, 0o755)
			}
			return nil
		})
		_ = os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copySelf copies the running test binary to dst, executable by anyone.
func copySelf(dst string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	src, err := os.Open(self)
	if err != nil {
		return err
	}
	defer func() { _ = src.Close() }() // only read
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, src); err != nil {
		return errors.Join(err, out.Close())
	}
	return out.Close()
}
