package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// rootView is all of the host that a sandbox's root holds besides /proc,
// /dev/{null,zero,urandom} and its own /tmp: the interpreter, its standard
// library, the shared libraries they load, and the C.UTF-8 locale, each
// bound read-only at its own path, and the symbolic links by which the
// interpreter and the dynamic loader reach them (/lib64 → usr/lib64,
// libffi.so.8 → libffi.so.8.1.2...). Nothing else: no /usr/share, no other
// binary, no /etc.
type rootView struct {
	// binds are host files and directories, bound read-only at the same
	// path; none holds a symbolic link on its way.
	binds []string
	// links are symbolic links recreated as on the host, path → target.
	links map[string]string
}

// viewOf works out the root view of an interpreter: exe (its real path),
// reached as named (a path whose links lead to exe, or ""), with its
// standard library in libDirs (the extension modules among them). The
// shared libraries are those the dynamic loader would load for exe and
// each extension module (their DT_NEEDED entries, recursively, searched
// in their RUNPATH and the loader's system directories — the sandbox has
// no /etc/ld.so.cache), whether or not the program imports the module.
func viewOf(exe, named string, libDirs []string) (*rootView, error) {
	v := &rootView{links: map[string]string{}}
	if named != "" && named != exe {
		if err := v.add(named); err != nil {
			return nil, err
		}
	}
	if err := v.add(exe); err != nil {
		return nil, err
	}
	objects := []string{exe}
	for _, dir := range libDirs {
		if err := v.add(dir); err != nil {
			return nil, err
		}
		mods, _ := filepath.Glob(filepath.Join(dir, "*.so"))
		objects = append(objects, mods...)
	}
	var loader string
	seen := map[string]bool{}
	var dirs []string
	for len(objects) > 0 {
		obj := objects[0]
		objects = objects[1:]
		if seen[obj] {
			continue
		}
		seen[obj] = true
		needed, runpath, interp, err := elfDeps(obj)
		if err != nil {
			if obj == exe {
				return nil, fmt.Errorf("%s: %w", exe, err)
			}
			continue // not an ELF object of ours: the loader would not load it either
		}
		if interp != "" && loader == "" {
			loader = interp
			if err := v.add(interp); err != nil {
				return nil, err
			}
			dirs = loaderDirs(interp)
		}
		for _, name := range needed {
			path := findLibrary(name, expandOrigin(runpath, filepath.Dir(obj)), dirs)
			if path == "" {
				continue // not installed: importing the module fails, in the sandbox as on the host
			}
			if err := v.add(path); err != nil {
				return nil, err
			}
			real, err := filepath.EvalSymlinks(path)
			if err != nil {
				return nil, err
			}
			objects = append(objects, real)
		}
	}
	// glibc before 2.35 (no built-in C.UTF-8) reads LANG=C.UTF-8's locale
	// from here (Debian, Fedora, Arch); without it Python would fall back
	// to its UTF-8 mode.
	for _, dir := range []string{"/usr/lib/locale/C.utf8", "/usr/lib/locale/C.UTF-8"} {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			if err := v.add(dir); err != nil {
				return nil, err
			}
			break
		}
	}
	v.prune()
	return v, nil
}

// add makes path reachable in the view: every symbolic link on its way
// (recreated), and the file or directory it leads to (bound).
func (v *rootView) add(path string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("sandbox: %q is not an absolute path", path)
	}
	for hops := 0; ; hops++ {
		if hops > 40 {
			return fmt.Errorf("sandbox: too many symbolic links on the way to %s", path)
		}
		link, target, rest, err := firstLink(path)
		if err != nil {
			return err
		}
		if link == "" {
			if path == "/" {
				return errors.New("sandbox: the sandbox will not bind the whole root")
			}
			v.binds = append(v.binds, path)
			return nil
		}
		v.links[link] = target
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(link), target)
		}
		path = filepath.Join(target, rest)
	}
}

// firstLink finds the first symbolic link on the way to path: the link,
// its target as written, and the rest of path after it ("" when none).
func firstLink(path string) (link, target, rest string, err error) {
	parts := strings.Split(strings.Trim(filepath.Clean(path), "/"), "/")
	cur := "/"
	for i, p := range parts {
		cur = filepath.Join(cur, p)
		fi, err := os.Lstat(cur)
		if err != nil {
			return "", "", "", fmt.Errorf("sandbox: %w", err)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(cur)
			if err != nil {
				return "", "", "", fmt.Errorf("sandbox: %w", err)
			}
			return cur, target, filepath.Join(parts[i+1:]...), nil
		}
	}
	return "", "", "", nil
}

// prune drops binds inside other binds and links inside binds (the bound
// directory brings them), and sorts both for a stable command line.
func (v *rootView) prune() {
	var kept []string
	for _, b := range v.binds {
		inside := false
		for _, o := range v.binds {
			inside = inside || (o != b && within(b, o))
		}
		if !inside && !slices.Contains(kept, b) {
			kept = append(kept, b)
		}
	}
	sort.Strings(kept)
	v.binds = kept
	for l := range v.links {
		for _, b := range v.binds {
			if within(l, b) {
				delete(v.links, l)
				break
			}
		}
	}
}

// args is the view as bwrap options.
func (v *rootView) args() []string {
	var a []string
	paths := make([]string, 0, len(v.links))
	for p := range v.links {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		a = append(a, "--symlink", v.links[p], p)
	}
	for _, b := range v.binds {
		a = append(a, "--ro-bind", b, b)
	}
	return a
}

// elfDeps reads an ELF object's needed libraries, its RUNPATH (or RPATH)
// and its program interpreter.
func elfDeps(path string) (needed, runpath []string, interp string, err error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, nil, "", err
	}
	defer func() { _ = f.Close() }() // only read
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b := make([]byte, p.Filesz)
			if _, err := p.ReadAt(b, 0); err != nil {
				return nil, nil, "", err
			}
			interp = string(bytes.TrimRight(b, "\x00"))
		}
	}
	if needed, err = f.DynString(elf.DT_NEEDED); err != nil {
		return nil, nil, "", err
	}
	rp, _ := f.DynString(elf.DT_RUNPATH)
	if len(rp) == 0 {
		rp, _ = f.DynString(elf.DT_RPATH)
	}
	for _, r := range rp {
		runpath = append(runpath, filepath.SplitList(r)...)
	}
	return needed, runpath, interp, nil
}

// expandOrigin replaces $ORIGIN in RUNPATH entries with dir.
func expandOrigin(runpath []string, dir string) []string {
	out := make([]string, len(runpath))
	for i, r := range runpath {
		out[i] = strings.NewReplacer("${ORIGIN}", dir, "$ORIGIN", dir).Replace(r)
	}
	return out
}

// findLibrary is where the dynamic loader finds a needed library without
// an ld.so.cache: a name with a slash as it is, else the first of dirs
// holding it.
func findLibrary(name string, runpath, system []string) string {
	if strings.Contains(name, "/") {
		return name
	}
	for _, dir := range append(runpath, system...) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

// fallbackLoaderDirs are the usual system library directories, for a
// loader that does not list its own.
var fallbackLoaderDirs = []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"}

// loaderDirs asks the dynamic loader for its system search path (glibc
// 2.33+ lists it in --help: "  /lib/x86_64-linux-gnu (system search
// path)").
func loaderDirs(loader string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, loader, "--help").Output()
	var dirs []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if dir, ok := strings.CutSuffix(line, " (system search path)"); ok && filepath.IsAbs(dir) {
			dirs = append(dirs, dir)
		}
	}
	if len(dirs) == 0 {
		return fallbackLoaderDirs
	}
	return dirs
}
