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

// interpreter is a Python executable and what of the host it needs in
// the sandbox.
type interpreter struct {
	// exe is the real executable (symlinks and shims resolved).
	exe string
	// view is the interpreter, its standard library and the shared
	// libraries they load, as the sandbox's root holds them.
	view *rootView
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
// pyenv or asdf shim needs it), for its real executable and standard
// library; the sandbox then runs that executable directly, with a clean
// environment, in a root holding only what it loads (viewOf).
func inspect(python string) (interpreter, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, "-c",
		"import json, sys, sysconfig; print(json.dumps([sys.executable] + [sysconfig.get_path(p) or '' for p in ('stdlib', 'platstdlib')] + [sysconfig.get_config_var('DESTSHARED') or '']))").Output()
	if err != nil {
		return interpreter{}, fmt.Errorf("%s does not run: %v", python, err)
	}
	var paths []string
	if err := json.Unmarshal(out, &paths); err != nil || len(paths) != 4 {
		return interpreter{}, fmt.Errorf("%s reported %q", python, strings.TrimSpace(string(out)))
	}
	exe, err := filepath.EvalSymlinks(paths[0])
	if err != nil || !filepath.IsAbs(exe) {
		return interpreter{}, fmt.Errorf("%s reported the executable %q: %v", python, paths[0], err)
	}
	var libDirs []string
	for _, dir := range paths[1:] {
		if filepath.IsAbs(dir) {
			if _, err := os.Stat(dir); err == nil {
				libDirs = append(libDirs, dir)
			}
		}
	}
	if len(libDirs) == 0 {
		return interpreter{}, fmt.Errorf("%s reported no standard library directory (%q)", python, paths[1:])
	}
	// The name it was found by, when that leads to exe through links (not
	// a shim): the sandbox has it too.
	named := ""
	if abs, err := filepath.Abs(python); err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil && real == exe {
			named = abs
		}
	}
	view, err := viewOf(exe, named, libDirs)
	if err != nil {
		return interpreter{}, fmt.Errorf("%s: %w", python, err)
	}
	return interpreter{exe: exe, view: view}, nil
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}
