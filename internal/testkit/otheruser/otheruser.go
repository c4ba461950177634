package otheruser

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv marks the process Do starts as nobody.
const childEnv = "TRIAGE_TEST_OTHER_USER"

// nobody is the unprivileged user and group the check runs as under root.
const nobody = 65534

// InChild reports whether this process is the copy Do started as nobody;
// if it is, it runs check there, failing t if check fails, and the test
// returns at once.
func InChild(t *testing.T, check func() error) bool {
	t.Helper()
	if os.Getenv(childEnv) != "1" {
		return false
	}
	if err := check(); err != nil {
		t.Fatal(err)
	}
	return true
}

// Do runs check as an unprivileged user with env ("NAME=value") set, and
// returns its error: in this process when it is not root; as root, by
// running the top-level test t belongs to again as nobody, where the test
// calls check through InChild. The check reads its inputs from env, which
// must name files nobody may reach (see SharedDir). Not for parallel
// tests: without root, env is set with t.Setenv.
func Do(t *testing.T, env []string, check func() error) error {
	t.Helper()
	if os.Geteuid() != 0 {
		for _, kv := range env {
			name, value, _ := strings.Cut(kv, "=")
			t.Setenv(name, value)
		}
		return check()
	}
	bin := filepath.Join(binDir(t), "test.bin")
	if err := linkOrCopySelf(bin); err != nil {
		t.Fatal(err)
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	args := []string{"-test.run", "^" + regexp.QuoteMeta(top) + "$", "-test.count", "1"}
	if deadline, ok := t.Deadline(); ok {
		args = append(args, "-test.timeout", time.Until(deadline).Round(time.Second).String())
	}
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Env = append([]string{childEnv + "=1", "HOME=/nonexistent", "PATH=/usr/bin:/bin", "TMPDIR=" + os.TempDir()}, env...)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("as nobody: %v: %s", err, out)
	}
	return nil
}

// binDir is a new temporary directory that other users may enter but not
// write, for the test binary they run.
func binDir(t *testing.T) string {
	t.Helper()
	dir := tempDir(t)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// SharedDir returns a new temporary directory that any user may enter and
// write (sticky, as /tmp: only a file's owner may remove it), removed when
// t ends.
func SharedDir(t *testing.T) string {
	t.Helper()
	dir := tempDir(t)
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	return dir
}

// tempDir is a new temporary directory, removed (its directories made
// writable again first) when t ends. Other users must be able to reach it:
// a TMPDIR they cannot enter is an error saying so.
func tempDir(t *testing.T) string {
	t.Helper()
	if fi, err := os.Stat(os.TempDir()); err != nil || fi.Mode().Perm()&0o001 == 0 {
		t.Fatalf("otheruser: the temporary directory %s must be one other users may enter (set TMPDIR to one, such as /tmp): %v", os.TempDir(), err)
	}
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
	return dir
}

// linkOrCopySelf links the running test binary at dst, or copies it there
// executable by anyone when it cannot be linked (another file system).
func linkOrCopySelf(dst string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if fi, err := os.Stat(self); err == nil && fi.Mode().Perm()&0o005 == 0o005 && os.Link(self, dst) == nil {
		return nil
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
