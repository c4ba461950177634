package deploy

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"debug/elf"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/moby/buildkit/client/llb"
	"github.com/moby/buildkit/client/llb/sourceresolver"
	"github.com/moby/buildkit/frontend/dockerfile/dockerfile2llb"
	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
	digest "github.com/opencontainers/go-digest"
)

// The Dockerfile cannot be built here (no Docker engine, no registry), so
// these tests check it the other ways there are: BuildKit's own parser and
// lint rules (what `docker build --check` runs), its stages, the build
// context its .dockerignore leaves, and its build stage's commands run as
// written on that context.

// Stage names the Dockerfile must have: the build, the Executor's image and
// the default (last) target for the Oracle, the Planner and workers.
const (
	buildStage    = "build"
	executorStage = "executor"
	serviceStage  = "service"
	nonRootUser   = "65532:65532"
	entrypoint    = "/usr/local/bin/triage"
)

func parseDockerfile(t testing.TB) []instructions.Stage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	stages, err := dockerfileStages(data)
	if err != nil {
		t.Fatal(err)
	}
	return stages
}

func dockerfileStages(data []byte) ([]instructions.Stage, error) {
	res, err := parser.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if len(res.Warnings) > 0 {
		return nil, fmt.Errorf("parser warnings: %v", res.Warnings)
	}
	stages, _, err := instructions.Parse(res.AST, linter.New(&linter.Config{ReturnAsError: true}))
	return stages, err
}

// stubResolver answers BuildKit's base-image lookups without a registry:
// the lint needs a config for each FROM, not its contents.
type stubResolver struct{}

func (stubResolver) ResolveImageConfig(_ context.Context, ref string, _ sourceresolver.Opt) (string, digest.Digest, []byte, error) {
	return ref, digest.FromString(ref), []byte(`{"architecture":"amd64","os":"linux","config":{}}`), nil
}

// TestDockerfileLint runs BuildKit's Dockerfile checks — the ones `docker
// build --check` runs, experimental ones included — over every stage.
func TestDockerfileLint(t *testing.T) {
	data := readRepoFile(t, "Dockerfile")
	sm := llb.NewSourceMap(nil, "Dockerfile", "Dockerfile", data)
	sm.Definition = &llb.Definition{}
	opt := dockerfile2llb.ConvertOpt{MetaResolver: stubResolver{}, SourceMap: sm}
	opt.LinterConfig = &linter.Config{ExperimentalAll: true}
	res, err := dockerfile2llb.DockerfileLint(context.Background(), data, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Error != nil {
		t.Errorf("Dockerfile: %s", res.Error.Message)
	}
	for _, w := range res.Warnings {
		line := 0
		if len(w.Location.Ranges) > 0 {
			line = int(w.Location.Ranges[0].Start.Line)
		}
		t.Errorf("Dockerfile:%d: %s: %s", line, w.RuleName, w.Detail)
	}
}

// TestDockerfileStages checks what the images must be: a static build, a
// non-root user, the Executor's sandbox tools, pinned bases.
func TestDockerfileStages(t *testing.T) {
	stages := parseDockerfile(t)
	byName := map[string]instructions.Stage{}
	for _, s := range stages {
		byName[s.Name] = s
	}
	for _, name := range []string{buildStage, executorStage, serviceStage} {
		if _, ok := byName[name]; !ok {
			t.Fatalf("no stage %q", name)
		}
	}
	if last := stages[len(stages)-1].Name; last != serviceStage {
		t.Errorf("the default target (last stage) is %q, want %q", last, serviceStage)
	}
	if b := byName[buildStage].BaseName; !strings.HasPrefix(b, "golang:1.26") {
		t.Errorf("build stage FROM %s, want golang:1.26", b)
	}
	env := stageEnv(byName[buildStage])
	if env["CGO_ENABLED"] != "0" {
		t.Errorf("build stage: CGO_ENABLED=%q, want 0 (a static binary)", env["CGO_ENABLED"])
	}
	var builds int
	for _, run := range stageRuns(byName[buildStage]) {
		if strings.Contains(run, "go build") {
			builds++
			if !strings.Contains(run, "-trimpath") {
				t.Errorf("build stage: %q lacks -trimpath", run)
			}
		}
	}
	if builds == 0 {
		t.Error("build stage runs no go build")
	}
	for _, name := range []string{executorStage, serviceStage} {
		s := byName[name]
		if strings.HasSuffix(s.BaseName, ":latest") || !strings.Contains(s.BaseName, ":") {
			t.Errorf("stage %s: FROM %s: pin a tag", name, s.BaseName)
		}
		user, ep := "", []string(nil)
		for _, c := range s.Commands {
			switch c := c.(type) {
			case *instructions.UserCommand:
				user = c.User
			case *instructions.EntrypointCommand:
				ep = c.CmdLine
			case *instructions.CopyCommand:
				if c.From != buildStage {
					t.Errorf("stage %s: COPY from %q; the final images take only the build stage's outputs", name, c.From)
				}
			}
		}
		if user != nonRootUser {
			t.Errorf("stage %s: USER %q, want %s (non-root, distroless's nonroot uid)", name, user, nonRootUser)
		}
		if !slices.Equal(ep, []string{entrypoint}) {
			t.Errorf("stage %s: ENTRYPOINT %q, want [%s] (exec form)", name, ep, entrypoint)
		}
	}
	if !strings.Contains(byName[serviceStage].BaseName, "distroless/static") || !strings.HasSuffix(byName[serviceStage].BaseName, ":nonroot") {
		t.Errorf("stage %s: FROM %s, want distroless static, nonroot", serviceStage, byName[serviceStage].BaseName)
	}
	// The sandbox's two system dependencies, from Debian.
	installs := strings.Join(stageRuns(byName[executorStage]), "\n")
	for _, pkg := range []string{"python3", "bubblewrap"} {
		if !strings.Contains(installs, "apt-get install") || !strings.Contains(installs, " "+pkg) {
			t.Errorf("stage %s does not apt-get install %s", executorStage, pkg)
		}
	}
}

func stageEnv(s instructions.Stage) map[string]string {
	env := map[string]string{}
	for _, c := range s.Commands {
		if e, ok := c.(*instructions.EnvCommand); ok {
			for _, kv := range e.Env {
				env[kv.Key] = kv.Value
			}
		}
	}
	return env
}

func stageRuns(s instructions.Stage) []string {
	var out []string
	for _, c := range s.Commands {
		if r, ok := c.(*instructions.RunCommand); ok {
			out = append(out, strings.Join(r.CmdLine, " "))
		}
	}
	return out
}

// loadIgnore reads .dockerignore as BuildKit does.
func loadIgnore() (*patternmatcher.PatternMatcher, error) {
	f, err := os.Open(filepath.Join(root, ".dockerignore"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	patterns, err := ignorefile.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return patternmatcher.New(patterns)
}

func ignored(t testing.TB, pm *patternmatcher.PatternMatcher, rel string) bool {
	t.Helper()
	m, err := pm.MatchesOrParentMatches(filepath.ToSlash(rel))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDockerContext checks that .dockerignore leaves in every file the
// build reads — each Go file and embedded file of the packages the binary
// is built from, both go.mod/go.sum pairs — and keeps out what it must not
// send (git history, local stores, secrets, the manifests).
func TestDockerContext(t *testing.T) {
	pm, err := loadIgnore()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "-json=Dir,GoFiles,EmbedFiles,Module", "./cmd/triage")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	need := []string{"go.mod", "go.sum", "deploy/go.mod", "deploy/go.sum"}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			Dir                 string
			GoFiles, EmbedFiles []string
			Module              *struct{ Main bool }
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Module == nil || !p.Module.Main {
			continue
		}
		for _, f := range append(p.GoFiles, p.EmbedFiles...) {
			rel, err := filepath.Rel(abs, filepath.Join(p.Dir, f))
			if err != nil {
				t.Fatal(err)
			}
			need = append(need, rel)
		}
	}
	if len(need) < 50 {
		t.Fatalf("go list found only %d files", len(need))
	}
	for _, f := range need {
		if ignored(t, pm, f) {
			t.Errorf(".dockerignore leaves out %s, which the build reads", f)
		}
	}
	for _, f := range []string{".git", "deploy/compose/secrets/server.key", "deploy/kubernetes/base/sandbox/executor.yaml", "triage.db", "testdata/benchmarks/x", "bin/triage"} {
		if !ignored(t, pm, f) {
			t.Errorf(".dockerignore sends %s", f)
		}
	}
}

// copyContext copies the files .dockerignore leaves in to dst: the build
// context a `docker build .` would send.
func copyContext(pm *patternmatcher.PatternMatcher, dst string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == "." {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if m, err := pm.MatchesOrParentMatches(filepath.ToSlash(rel)); err != nil || m {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// runBuildStage does what the Dockerfile's build stage does, into out: it
// copies the build context (COPY . . into the WORKDIR) and runs each RUN
// command as written, with the stage's ENV, the output directory /out
// mapped to out. The cache mounts are BuildKit's speed-up; here Go's own
// caches play that part.
func runBuildStage(out string) error {
	data, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		return err
	}
	stages, err := dockerfileStages(data)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(stages, func(s instructions.Stage) bool { return s.Name == buildStage })
	if i < 0 {
		return fmt.Errorf("no %s stage", buildStage)
	}
	src := filepath.Join(out, "src")
	env := os.Environ()
	var ran int
	for _, c := range stages[i].Commands {
		switch c := c.(type) {
		case *instructions.WorkdirCommand:
			if c.Path != "/src" {
				return fmt.Errorf("WORKDIR %s: this emulation knows /src", c.Path)
			}
		case *instructions.EnvCommand:
			for _, kv := range c.Env {
				env = append(env, kv.Key+"="+kv.Value)
			}
		case *instructions.CopyCommand:
			if !slices.Equal(c.SourcePaths, []string{"."}) || c.DestPath != "." || c.From != "" {
				return fmt.Errorf("COPY %v %s: this emulation knows COPY . .", c.SourcePaths, c.DestPath)
			}
			pm, err := loadIgnore()
			if err != nil {
				return err
			}
			if err := copyContext(pm, src); err != nil {
				return err
			}
		case *instructions.RunCommand:
			// Parse the --mount flags (no build arguments to expand).
			if err := c.Expand(func(w string) (string, error) { return w, nil }); err != nil {
				return err
			}
			for _, m := range instructions.GetMounts(c) {
				if m.Type != instructions.MountTypeCache {
					return fmt.Errorf("RUN --mount=type=%s: this emulation knows cache mounts", m.Type)
				}
			}
			line := strings.ReplaceAll(strings.Join(c.CmdLine, " "), "/out/", out+"/")
			cmd := exec.Command("sh", "-c", line)
			cmd.Dir, cmd.Env = src, env
			if msg, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("RUN %s: %v\n%s", line, err, msg)
			}
			ran++
		default:
			return fmt.Errorf("%s: this emulation does not know the instruction", c.Name())
		}
	}
	if ran == 0 {
		return fmt.Errorf("the %s stage runs nothing", buildStage)
	}
	return os.RemoveAll(src)
}

// TestDockerBuildStage runs the build stage and checks its outputs: static
// executables (nothing for the distroless image to lack), built with the
// Dockerfile's flags, that run.
func TestDockerBuildStage(t *testing.T) {
	dir := buildImageBinaries(t)
	for _, name := range []string{"triage", "grpc_health_probe"} {
		path := filepath.Join(dir, name)
		f, err := elf.Open(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				t.Errorf("%s is dynamically linked (%v)", name, p.Type)
			}
		}
		// -ldflags='-s -w' (which -trimpath keeps out of the build info).
		if f.Section(".symtab") != nil || f.Section(".debug_info") != nil {
			t.Errorf("%s has a symbol table or DWARF: not linked with -s -w", name)
		}
		f.Close()
		info, err := buildinfo.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		settings := map[string]string{}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
		for k, v := range map[string]string{"CGO_ENABLED": "0", "-trimpath": "true"} {
			if settings[k] != v {
				t.Errorf("%s: built with %s=%q, want %q", name, k, settings[k], v)
			}
		}
	}
	if out, err := exec.Command(filepath.Join(dir, "triage"), "help").CombinedOutput(); err != nil || !strings.Contains(string(out), "serve") {
		t.Errorf("triage help: %v\n%s", err, out)
	}
	if out, err := exec.Command(filepath.Join(dir, "grpc_health_probe"), "-version").CombinedOutput(); err != nil {
		t.Errorf("grpc_health_probe -version: %v\n%s", err, out)
	}
}
