package sqldb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCopyToReadWaitsForAStillFile: a file that changes while it is copied
// is copied again, and one that keeps changing is an error saying another
// process is writing it; the copies made meanwhile are removed.
func TestCopyToReadWaitsForAStillFile(t *testing.T) {
	tests := []struct {
		name    string
		changes int // how many copies of the file see it change
		wantErr string
	}{
		{name: "still", changes: 0},
		{name: "changed once", changes: 1},
		{name: "changing", changes: copyAttempts, wantErr: "another process is writing it"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			path := filepath.Join(t.TempDir(), "store.db")
			if err := os.WriteFile(path, []byte("version 0"), 0o644); err != nil {
				t.Fatal(err)
			}
			copies := 0
			writing := func(src, dst string, size int64) error {
				copies++
				if copies <= tc.changes { // a writer appends while the copy is made
					f, err := os.OpenFile(src, os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						return err
					}
					if _, err := f.WriteString(" and more"); err != nil {
						return err
					}
					if err := f.Close(); err != nil {
						return err
					}
				}
				return copyFile(src, dst, size)
			}
			dir, copied, err := copyToRead(path, writing)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("copyToRead = %v, want an error with %q", err, tc.wantErr)
				}
				if left, _ := os.ReadDir(tmp); len(left) != 0 {
					t.Errorf("left %d copies in the temporary directory", len(left))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer dir.remove()
			got, err := os.ReadFile(copied)
			want, _ := os.ReadFile(path)
			if err != nil || string(got) != string(want) {
				t.Errorf("copy holds %q (%v), the file %q", got, err, want)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 1 {
				t.Errorf("%d directories in the temporary directory, want the copy's alone", len(left))
			}
		})
	}
}

// TestCopyToReadRefusesOddFiles: a companion file that is not a regular
// file — a link to a device that never ends, say — is refused, naming it.
func TestCopyToReadRefusesOddFiles(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	path := filepath.Join(t.TempDir(), "store.db")
	if err := os.WriteFile(path, []byte("a store"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", path+"-wal"); err != nil {
		t.Fatal(err)
	}
	_, _, err := copyToRead(path, copyFile)
	if err == nil || !strings.Contains(err.Error(), "store.db-wal is not a regular file") {
		t.Fatalf("copyToRead = %v, want the -wal named as not a regular file", err)
	}
}

// TestCopiesOfDeadProcessesAreSwept: making a copy removes this user's
// copy directories that no process holds and that are older than
// staleAfter (a process killed while it read one left them), and leaves
// those a process holds and those just made.
func TestCopiesOfDeadProcessesAreSwept(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	old := time.Now().Add(-2 * staleAfter)
	held, err := newCopyDir()
	if err != nil {
		t.Fatal(err)
	}
	defer held.remove()
	dead, err := newCopyDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := dead.lock.Close(); err != nil { // as its process ending would
		t.Fatal(err)
	}
	unlocked := filepath.Join(tmp, copyDirPrefix+"unlocked")
	young := filepath.Join(tmp, copyDirPrefix+"young")
	for _, dir := range []string{unlocked, young} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{held.path, dead.path, unlocked} {
		if err := os.Chtimes(dir, old, old); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "store.db")
	if err := os.WriteFile(file, []byte("a store"), 0o644); err != nil {
		t.Fatal(err)
	}
	made, _, err := copyToRead(file, copyFile)
	if err != nil {
		t.Fatal(err)
	}
	defer made.remove()
	for dir, want := range map[string]bool{held.path: true, dead.path: false, unlocked: false, young: true, made.path: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(dir), err == nil, want)
		}
	}
}
