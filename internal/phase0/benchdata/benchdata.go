package benchdata

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Dir is the folder of the benchmark records, relative to the module root.
const Dir = "testdata/benchmarks"

// Path returns the path of rel (for example "aime/aime2024.jsonl") inside
// the module's testdata/benchmarks folder, failing tb when the module root
// or the file cannot be found.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatalf("benchdata: %v", err)
	}
	root, err := moduleRoot(wd)
	if err != nil {
		tb.Fatalf("benchdata: %v", err)
	}
	path := filepath.Join(root, filepath.FromSlash(Dir), filepath.FromSlash(rel))
	if _, err := os.Stat(path); err != nil {
		tb.Fatalf("benchdata: %v", err)
	}
	return path
}

// moduleRoot returns the nearest folder at or above dir that holds go.mod.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no go.mod at or above %s", dir)
		}
		d = parent
	}
}
