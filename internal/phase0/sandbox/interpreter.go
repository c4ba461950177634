package sandbox

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// candidates lists interpreters to try, in order: explicit alone when set,
// else python3 on PATH, /usr/bin/python3, /usr/local/bin/python3.
func candidates(explicit string) (list, notes []string) {
	if explicit != "" {
		// A shim given explicitly is resolved too.
		if exe, err := realExecutable(explicit); err == nil {
			return []string{exe}, nil
		}
		return []string{explicit}, nil
	}
	seen := map[string]bool{}
	add := func(p string) {
		if p == "" || seen[p] {
			return
		}
		seen[p] = true
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			list = append(list, p)
		}
	}
	if p, err := exec.LookPath("python3"); err == nil {
		if exe, err := realExecutable(p); err == nil {
			add(exe)
		} else {
			notes = append(notes, fmt.Sprintf("%s did not report its executable: %v", p, err))
		}
	} else {
		notes = append(notes, "python3 is not on PATH")
	}
	add("/usr/bin/python3")
	add("/usr/local/bin/python3")
	return list, notes
}

// realExecutable asks python for sys.executable: shims (pyenv, asdf) need
// the caller's environment to find the real interpreter, which the sandbox
// then runs directly, with a clean environment.
func realExecutable(python string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return "", err
	}
	exe := strings.TrimSpace(string(out))
	if !filepath.IsAbs(exe) {
		return "", fmt.Errorf("sys.executable is %q", exe)
	}
	return exe, nil
}
