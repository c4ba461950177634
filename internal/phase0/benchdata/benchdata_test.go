package benchdata

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesMatchREADME checks that every file of the README's table is
// present with the SHA-256 recorded there, and that the folder holds no data
// file the table does not describe (its source and licence would be lost).
func TestFilesMatchREADME(t *testing.T) {
	readme := Path(t, "README.md")
	f, err := os.Open(readme)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		// | file | what | records | source | licence | SHA-256 |
		if len(cells) != 8 || !strings.Contains(cells[1], "/") {
			continue
		}
		listed[strings.TrimSpace(cells[1])] = strings.TrimSpace(cells[6])
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(listed) == 0 {
		t.Fatal("the README's table lists no file")
	}
	for rel, want := range listed {
		data, err := os.ReadFile(Path(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s: SHA-256 %s, the README records %s", rel, got, want)
		}
	}
	root := filepath.Dir(readme)
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == readme {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if _, ok := listed[filepath.ToSlash(rel)]; !ok {
			t.Errorf("%s is not described in the README (source, commit, licence)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestModuleRoot(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := moduleRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, wd)
	if err != nil || strings.HasPrefix(rel, "..") || rel == "." {
		t.Errorf("module root %s is not above the package folder %s", root, wd)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Errorf("module root %s: %v", root, err)
	}
	if _, err := moduleRoot(t.TempDir()); err == nil {
		t.Error("a folder with no go.mod above it: no error")
	}
}
