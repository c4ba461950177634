package internal

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/triage-eval/triage/"

// mayImport lists, for each group, the other groups its non-test code may
// import (a group may always import itself). Test files may also import the
// services, to compose them in process, and the testkit, which no non-test
// code may import. The groups' doc.go files say the same.
var mayImport = map[string][]string{
	"gen":      {},
	"api":      {},
	"protocol": {},
	"platform": {"protocol", "gen", "api"},
	"store":    {"platform", "protocol", "gen"},
	"llm":      {"platform", "store", "protocol"},
	"planning": {"llm", "platform", "protocol", "gen"},
	"phase0":   {"llm", "planning", "store", "platform", "protocol"},
	"runs":     {"phase0", "llm", "planning", "store", "platform", "protocol", "gen"},
	"services": {"phase0", "llm", "planning", "store", "platform", "protocol", "gen"},
	"cli":      {"runs", "services", "phase0", "llm", "planning", "store", "platform", "protocol", "gen"},
	"cmd":      {"cli"},
	"examples": {"cli", "platform", "gen"},
	"testkit":  {"llm", "store", "platform", "protocol", "gen"},
}

// testOnly are the groups that test files of every group may import.
var testOnly = []string{"services", "testkit"}

// groupOf names the group of a slash-separated path inside the module.
func groupOf(path string) string {
	parts := strings.Split(path, "/")
	if parts[0] == "internal" && len(parts) > 1 {
		return parts[1]
	}
	return parts[0]
}

// TestImportsGoOnlyDownward parses every Go file of the module and fails on
// an import from a group its doc.go does not allow.
func TestImportsGoOnlyDownward(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	checked := 0
	for _, top := range []string{"internal", "services", "cmd", "gen", "api", "examples"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") {
				return nil
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			from := groupOf(filepath.ToSlash(filepath.Dir(rel)))
			if filepath.ToSlash(filepath.Dir(rel)) == "internal" {
				return nil // this package: the groups' overview
			}
			allowed, ok := mayImport[from]
			if !ok {
				t.Errorf("%s: group %q is not in mayImport: add it with what it may import", rel, from)
				return nil
			}
			if strings.HasSuffix(rel, "_test.go") {
				allowed = append(slices.Clone(allowed), testOnly...)
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			checked++
			for _, imp := range f.Imports {
				p, err := strconv.Unquote(imp.Path.Value)
				if err != nil {
					return err
				}
				if !strings.HasPrefix(p, module) {
					continue
				}
				to := groupOf(strings.TrimPrefix(p, module))
				if to != from && !slices.Contains(allowed, to) {
					t.Errorf("%s imports %s: %s may not import %s", rel, p, from, to)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d files checked: is the module root %s?", checked, root)
	}
}

func TestGroupOf(t *testing.T) {
	for path, want := range map[string]string{
		"internal/protocol/knapsack": "protocol",
		"internal/llm/llmtest":       "llm",
		"services/oracle":            "services",
		"gen/triage/v1":              "gen",
		"cmd/triage":                 "cmd",
		"internal/testkit/golden":    "testkit",
	} {
		if got := groupOf(path); got != want {
			t.Errorf("groupOf(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestTestOnlyGroupsStayOutOfProduction keeps the test-only groups out of
// every group's non-test imports: only test files may import them.
func TestTestOnlyGroupsStayOutOfProduction(t *testing.T) {
	for from, allowed := range mayImport {
		if from == "testkit" {
			continue
		}
		if slices.Contains(allowed, "testkit") {
			t.Errorf("mayImport[%q] lists testkit: only test files may import it", from)
		}
	}
}
