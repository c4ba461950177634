package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// update is registered once for every test binary that imports golden.
var update = flag.Bool("update", false, "rewrite golden files with the output of the tests")

// Update reports whether the tests run with -update, for a test that
// writes its golden files itself.
func Update() bool { return *update }

// File compares got with the file at path; under -update it writes got to
// path first. A missing file or a difference fails tb (with Errorf, so a
// test comparing several files reports them all).
func File(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Errorf("%v (run go test -update to write it)", err)
		return
	}
	if bytes.Equal(got, want) {
		return
	}
	tb.Errorf("output differs from %s (%d bytes, want %d); if the change is intended, run go test -update and review the diff:\n%s",
		path, len(got), len(want), diff(want, got))
}

// String is File for text output.
func String(tb testing.TB, path, got string) {
	tb.Helper()
	File(tb, path, []byte(got))
}

// diff shows a line diff (-want +got) of text, and nothing of bytes that
// are not UTF-8.
func diff(want, got []byte) string {
	if !utf8.Valid(want) || !utf8.Valid(got) {
		return "(binary)"
	}
	return cmp.Diff(strings.SplitAfter(string(want), "\n"), strings.SplitAfter(string(got), "\n"))
}
