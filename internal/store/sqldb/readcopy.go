package sqldb

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// copyAttempts is how many times copyToRead copies a file that changes
// while it is copied before it gives up.
const copyAttempts = 3

// companions are the files SQLite keeps beside a database that hold part
// of its content: the write-ahead log and the rollback journal.
var companions = []string{"", "-wal", "-journal"}

// copyToRead copies the SQLite file at path, with its -wal and -journal
// files when it has them, into a new private temporary directory, and
// returns the directory, held by this process until removed (copyDir), and
// the copy's path. A copy is read when the file cannot be read where it is; SQLite's immutable mode, which would read it
// in place, reads a file another process writes meanwhile torn, and
// ignores its -wal. So that a copy is never of a file being written, each
// file's size, modification time and inode, and which of them exist, must
// be the same after the copy as before; a file that keeps changing is an
// error. copy copies one file, as many bytes as it had (copyFile). The
// copy directories a killed process left are removed first (sweepCopies).
func copyToRead(path string, copy func(src, dst string, size int64) error) (_ *copyDir, copied string, err error) {
	sweepCopies(time.Now())
	for range copyAttempts {
		before, err := statAll(path)
		if err != nil {
			return nil, "", err
		}
		dir, err := newCopyDir()
		if err != nil {
			return nil, "", err
		}
		copied = filepath.Join(dir.path, filepath.Base(path))
		for i, suffix := range companions {
			if before[i].exists {
				if err := copy(path+suffix, copied+suffix, before[i].size); err != nil {
					return nil, "", errors.Join(err, dir.remove())
				}
			}
		}
		after, err := statAll(path)
		if err == nil && slices.Equal(before, after) {
			return dir, copied, nil
		}
		if err := dir.remove(); err != nil {
			return nil, "", err
		}
	}
	return nil, "", fmt.Errorf("it kept changing while it was copied: another process is writing it; try again once that process is done")
}

// fileState is what copyToRead compares of a file before and after it
// copies it.
type fileState struct {
	exists bool
	size   int64
	mtime  int64 // nanoseconds since the epoch
	inode  uint64
}

// statAll returns the state of path and of its companions, in order. Each
// must be a regular file (a companion may be missing): a link or a device
// in a directory someone else controls could make the copy endless.
func statAll(path string) ([]fileState, error) {
	states := make([]fileState, len(companions))
	for i, suffix := range companions {
		fi, err := os.Lstat(path + suffix)
		switch {
		case errors.Is(err, fs.ErrNotExist) && suffix != "":
			continue
		case err != nil:
			return nil, err
		case !fi.Mode().IsRegular():
			return nil, fmt.Errorf("%s%s is not a regular file (%v)", path, suffix, fi.Mode().Type())
		}
		states[i] = fileState{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			states[i].inode = st.Ino
		}
	}
	return states, nil
}

// copyFile copies the first size bytes of src to dst, which it creates
// readable by this user only; a src shorter than size is an error.
func copyFile(src, dst string, size int64) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }() // only read
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.CopyN(out, in, size); err != nil {
		return errors.Join(fmt.Errorf("copying %s: %w", src, err), out.Close())
	}
	return out.Close()
}
