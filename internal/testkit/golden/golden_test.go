package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what File reports.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatal(args ...any) { r.TB.Fatal(args...) }

// withUpdate runs f with -update set to on.
func withUpdate(t *testing.T, on bool, f func()) {
	t.Helper()
	old := *update
	*update = on
	defer func() { *update = old }()
	f()
}

func TestFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "out.golden")
	withUpdate(t, false, func() {
		r := &recorder{TB: t}
		File(r, path, []byte("a\n"))
		if len(r.errors) != 1 || !strings.Contains(r.errors[0], "run go test -update") {
			t.Errorf("missing file reported %q, want one error naming -update", r.errors)
		}
	})
	withUpdate(t, true, func() {
		r := &recorder{TB: t}
		File(r, path, []byte("a\nb\n"))
		if len(r.errors) != 0 {
			t.Errorf("-update reported %q", r.errors)
		}
		if !Update() {
			t.Error("Update() = false under -update")
		}
	})
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\nb\n" {
		t.Fatalf("-update wrote %q, %v", b, err)
	}
	withUpdate(t, false, func() {
		r := &recorder{TB: t}
		String(r, path, "a\nb\n")
		if len(r.errors) != 0 {
			t.Errorf("equal output reported %q", r.errors)
		}
		File(r, path, []byte("a\nc\n"))
		if len(r.errors) != 1 || !strings.Contains(r.errors[0], path) || !strings.Contains(r.errors[0], `"b\n"`) || !strings.Contains(r.errors[0], `"c\n"`) {
			t.Errorf("difference reported %q, want the path and a line diff", r.errors)
		}
	})
}

func TestDiffOfBinary(t *testing.T) {
	if got := diff([]byte{0xff, 0xfe}, []byte("x")); got != "(binary)" {
		t.Errorf("diff of non-UTF-8 = %q", got)
	}
}
