package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// root is the repository's top directory (tests run in deploy/).
const root = ".."

// readRepoFile reads a file of the repository.
func readRepoFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var built struct {
	once     sync.Once
	dir, err string
}

// buildImageBinaries runs the Dockerfile's build stage as it is written
// (see dockerfile_test.go) once per test process and returns the directory
// holding its outputs, triage and grpc_health_probe.
func buildImageBinaries(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binaries; skipped with -short")
	}
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "triage-deploy-build-")
		if err != nil {
			built.err = err.Error()
			return
		}
		if err := runBuildStage(dir); err != nil {
			built.err = err.Error()
			return
		}
		built.dir = dir
	})
	if built.err != "" {
		t.Fatalf("the Dockerfile's build stage: %s", built.err)
	}
	return built.dir
}

// TestMain removes the build directory after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// lookPath skips the test when a command it needs is missing.
func lookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found: %v", name, err)
	}
	return p
}
