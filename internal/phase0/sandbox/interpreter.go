package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// interpreter is a Python executable and the host directories it needs
// inside the sandbox beyond /usr.
type interpreter struct {
	// exe is the real executable (symlinks and shims resolved).
	exe string
	// binds are directories outside /usr holding the interpreter or its
	// standard library, bound read-only at the same path.
	binds []string
}

// candidates lists interpreters to try, in order: explicit alone when set,
// else the system's /usr/bin/python3 and /usr/local/bin/python3, then
// python3 on PATH.
func candidates(explicit string) (list, notes []string) {
	if explicit != "" {
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
	add("/usr/bin/python3")
	add("/usr/local/bin/python3")
	if p, err := exec.LookPath("python3"); err == nil {
		add(p)
	} else {
		notes = append(notes, "python3 is not on PATH")
	}
	return list, notes
}

// inspect asks python, run on the host with the caller's environment (a
// pyenv or asdf shim needs it), for its real executable and prefixes; the
// sandbox then runs that executable directly, with a clean environment.
func inspect(python string) (interpreter, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, "-c",
		"import json, sys; print(json.dumps([sys.executable, sys.base_prefix, sys.base_exec_prefix]))").Output()
	if err != nil {
		return interpreter{}, fmt.Errorf("%s does not run: %v", python, err)
	}
	var paths []string
	if err := json.Unmarshal(out, &paths); err != nil || len(paths) != 3 {
		return interpreter{}, fmt.Errorf("%s reported %q", python, strings.TrimSpace(string(out)))
	}
	exe, err := filepath.EvalSymlinks(paths[0])
	if err != nil || !filepath.IsAbs(exe) {
		return interpreter{}, fmt.Errorf("%s reported the executable %q: %v", python, paths[0], err)
	}
	py := interpreter{exe: exe}
	for _, dir := range []string{filepath.Dir(exe), paths[1], paths[2]} {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			continue
		}
		if within(real, "/usr") {
			continue
		}
		if real == "/" {
			return interpreter{}, fmt.Errorf("%s lives in / (prefix %s): the sandbox will not bind the whole root", python, dir)
		}
		py.addBind(real)
	}
	return py, nil
}

// addBind adds dir unless it or a parent is bound already, dropping
// bound subdirectories of it.
func (py *interpreter) addBind(dir string) {
	var kept []string
	for _, b := range py.binds {
		if within(dir, b) {
			return
		}
		if !within(b, dir) {
			kept = append(kept, b)
		}
	}
	py.binds = append(kept, dir)
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}
