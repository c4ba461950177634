package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestGhzFindsEveryImport follows the imports of the protos ghz loads
// through ghzImportPaths, as ghz does: a vendored file moved or a path left
// out breaks `make load` (CI does not run it) before it sends one call.
func TestGhzFindsEveryImport(t *testing.T) {
	for name, tg := range targets {
		t.Run(name, func(t *testing.T) { checkImports(t, tg.proto) })
	}
}

func checkImports(t *testing.T, ghzProto string) {
	root := filepath.Join("..", "..")
	importRE := regexp.MustCompile(`(?m)^import\s+(?:public\s+|weak\s+)?"([^"]+)"`)
	wellKnown := regexp.MustCompile(`^google/protobuf/`) // compiled into ghz
	seen := map[string]bool{}
	var visit func(path string)
	visit = func(path string) {
		data, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range importRE.FindAllStringSubmatch(string(data), -1) {
			imp := m[1]
			if seen[imp] || wellKnown.MatchString(imp) {
				continue
			}
			seen[imp] = true
			found := ""
			for _, dir := range ghzImportPaths {
				if _, err := os.Stat(filepath.Join(root, dir, imp)); err == nil {
					found = filepath.Join(dir, imp)
					break
				}
			}
			if found == "" {
				t.Errorf("%s imports %q, found in none of %v", path, imp, ghzImportPaths)
				continue
			}
			visit(found)
		}
	}
	visit(ghzProto)
	if len(seen) == 0 {
		t.Fatalf("%s imports nothing: the import pattern no longer matches", ghzProto)
	}
}
