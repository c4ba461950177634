package sqldb

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// copyDirPrefix begins the names of the directories in $TMPDIR that copies
// are read from (copyToRead).
const copyDirPrefix = "triage-read-"

// copyLockName is the file in a copy directory that its process holds
// locked while it reads the copy: the lock ends with the process, however
// it ends.
const copyLockName = "lock"

// staleAfter is how long a copy directory no process holds is left alone
// before a new copy removes it: one being made has no lock for a moment.
const staleAfter = time.Minute

// copyDir is a directory a copy is made in, held by this process.
type copyDir struct {
	path string
	lock *os.File
}

// newCopyDir makes a new copy directory and holds it.
func newCopyDir() (*copyDir, error) {
	path, err := os.MkdirTemp("", copyDirPrefix)
	if err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(filepath.Join(path, copyLockName), os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err == nil {
		if err = unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			err = errors.Join(err, lock.Close())
		}
	}
	if err != nil {
		return nil, errors.Join(err, os.RemoveAll(path))
	}
	return &copyDir{path: path, lock: lock}, nil
}

// remove removes the directory and lets it go.
func (d *copyDir) remove() error {
	return errors.Join(os.RemoveAll(d.path), d.lock.Close())
}

// sweepCopies removes the copy directories in $TMPDIR that this user owns,
// that are older than staleAfter at now and that no process holds: those
// of a process killed while it read a copy. It is best effort: a directory
// it cannot read or remove is left.
func sweepCopies(now time.Time) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), copyDirPrefix+"*"))
	for _, dir := range dirs {
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() || now.Sub(fi.ModTime()) < staleAfter {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() {
			continue
		}
		lock, err := os.Open(filepath.Join(dir, copyLockName))
		if errors.Is(err, os.ErrNotExist) {
			_ = os.RemoveAll(dir) // its process died before it locked it
			continue
		}
		if err != nil {
			continue
		}
		if unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
			_ = os.RemoveAll(dir)
		}
		_ = lock.Close()
	}
}
