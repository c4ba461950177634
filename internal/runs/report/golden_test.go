package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden builds the fixture's report, writes it with WriteDir and
// compares every file with testdata/golden/<name>; run with -update to
// rewrite them.
func TestGolden(t *testing.T) {
	recs, acc := fixture()
	dir := t.TempDir()
	if err := Build(recs, acc).WriteDir(filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "golden")
	if *update {
		if err := os.MkdirAll(golden, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	written, err := os.ReadDir(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range written {
		names = append(names, e.Name())
	}
	want := FileNames()
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("WriteDir wrote %v, want %v", names, want)
	}
	for _, name := range FileNames() {
		t.Run(name, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(dir, "out", name))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(golden, name)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; got:\n%s", name, path, got)
			}
		})
	}
}

// TestOutputIndependentOfInputOrder: reversing the records (the duplicate
// left out, since the first of two records of a pool is the one kept) and
// the accuracies changes no output byte.
func TestOutputIndependentOfInputOrder(t *testing.T) {
	recs, acc := fixture()
	recs = recs[:len(recs)-1] // drop the duplicate
	rev := slices.Clone(recs)
	slices.Reverse(rev)
	revAcc := slices.Clone(acc)
	slices.Reverse(revAcc)
	a, b := Build(recs, acc), Build(rev, revAcc)
	for _, f := range files {
		var x, y bytes.Buffer
		if err := f.Write(a, &x); err != nil {
			t.Fatal(err)
		}
		if err := f.Write(b, &y); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x.Bytes(), y.Bytes()) {
			t.Errorf("%s depends on the input order", f.Name)
		}
	}
}
