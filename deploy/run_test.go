package deploy

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	corev1 "k8s.io/api/core/v1"
)

// The manifests' commands, run: the tests below play the kubelet's part
// for a pod — each volume written to a directory (ConfigMaps as built,
// Secrets with test values), the mount paths in the arguments pointed at
// those directories, $(VAR) expanded, the Secrets' variables set — and run
// the binary the Dockerfile builds with the container's own arguments.

// pgEnv returns libpq's variables for the test server, in a fresh schema
// (dropped at the end) so that the run is alone there; it skips without
// TRIAGE_TEST_POSTGRES_DSN.
func pgEnv(t *testing.T) []string {
	t.Helper()
	dsn := os.Getenv("TRIAGE_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("TRIAGE_TEST_POSTGRES_DSN not set (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "deploy_" + hex.EncodeToString(b[:])
	exec := func(sql string) {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec("CREATE SCHEMA " + schema)
	t.Cleanup(func() { exec("DROP SCHEMA " + schema + " CASCADE") })
	env := []string{"PGHOST=" + u.Hostname(), "PGDATABASE=" + strings.TrimPrefix(u.Path, "/"),
		"PGOPTIONS=-c search_path=" + schema}
	if p := u.Port(); p != "" {
		env = append(env, "PGPORT="+p)
	}
	if u.User != nil {
		env = append(env, "PGUSER="+u.User.Username())
		if pw, ok := u.User.Password(); ok {
			env = append(env, "PGPASSWORD="+pw)
		}
	}
	if m := u.Query().Get("sslmode"); m != "" {
		env = append(env, "PGSSLMODE="+m)
	}
	return env
}

// podRun is a container made runnable on this machine.
type podRun struct {
	args []string
	env  []string
	dir  string // where the volumes are
}

// materialize writes the pod's ConfigMap, Secret and projected volumes under
// dir (Secrets from secrets, by name and key) and returns the container's
// arguments with its mount paths moved there and $(VAR) expanded, and its
// environment (fieldRef values from fields).
func materialize(t *testing.T, dir string, spec corev1.PodSpec, c corev1.Container, cms []*corev1.ConfigMap, secrets map[string]map[string]string, fields map[string]string) podRun {
	t.Helper()
	write := func(vol, name string, data string) {
		p := filepath.Join(dir, vol, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	configMap := func(vol, name string, items []corev1.KeyToPath) {
		for _, cm := range cms {
			if cm.Name != name {
				continue
			}
			for k, v := range cm.Data {
				if len(items) == 0 {
					write(vol, k, v)
				}
				for _, it := range items {
					if it.Key == k {
						write(vol, it.Path, v)
					}
				}
			}
			return
		}
		t.Fatalf("volume %s: no ConfigMap %s", vol, name)
	}
	secret := func(vol, name string, items []corev1.KeyToPath) {
		for _, it := range items {
			v, ok := secrets[name][it.Key]
			if !ok {
				t.Fatalf("volume %s: the test has no value for Secret %s key %s", vol, name, it.Key)
			}
			write(vol, it.Path, v)
		}
		if len(items) == 0 {
			for k, v := range secrets[name] {
				write(vol, k, v)
			}
		}
	}
	for _, v := range spec.Volumes {
		switch {
		case v.ConfigMap != nil:
			configMap(v.Name, v.ConfigMap.Name, v.ConfigMap.Items)
		case v.Secret != nil:
			secret(v.Name, v.Secret.SecretName, v.Secret.Items)
		case v.Projected != nil:
			for _, s := range v.Projected.Sources {
				if s.ConfigMap != nil {
					configMap(v.Name, s.ConfigMap.Name, s.ConfigMap.Items)
				}
				if s.Secret != nil {
					secret(v.Name, s.Secret.Name, s.Secret.Items)
				}
			}
		default:
			if err := os.MkdirAll(filepath.Join(dir, v.Name), 0o700); err != nil {
				t.Fatal(err)
			}
		}
	}
	run := podRun{dir: dir}
	vars := map[string]string{}
	for _, e := range c.Env {
		val := e.Value
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			val = fields[e.ValueFrom.FieldRef.FieldPath]
		}
		vars[e.Name] = val
		run.env = append(run.env, e.Name+"="+val)
	}
	for _, a := range c.Args {
		a = varRef.ReplaceAllStringFunc(a, func(ref string) string { return vars[ref[2:len(ref)-1]] })
		run.args = append(run.args, remount(a, c.VolumeMounts, dir))
	}
	return run
}

// remount points a path argument ("/p" or "-flag=/p") under a volume
// mount at the directory the volume was written to.
func remount(arg string, mounts []corev1.VolumeMount, dir string) string {
	head, file := "", arg
	if strings.HasPrefix(arg, "-") {
		h, f, ok := strings.Cut(arg, "=")
		if !ok {
			return arg
		}
		head, file = h+"=", f
	}
	best := -1
	for i, m := range mounts {
		if (file == m.MountPath || strings.HasPrefix(file, m.MountPath+"/")) && (best < 0 || len(m.MountPath) > len(mounts[best].MountPath)) {
			best = i
		}
	}
	if best < 0 {
		return arg
	}
	return head + filepath.Join(dir, mounts[best].Name) + strings.TrimPrefix(file, mounts[best].MountPath)
}

// planServer is an OpenAI-compatible endpoint answering every planning
// prompt with the same plan, counting how often each prompt is asked.
type planServer struct {
	mu    sync.Mutex
	asked map[[32]byte]int
}

func (s *planServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.asked[sha256.Sum256(body)]++
	s.mu.Unlock()
	time.Sleep(50 * time.Millisecond) // a slow model: workers overlap
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"id":"x","object":"chat.completion","created":0,"model":"stub",`+
		`"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",`+
		`"content":"{\"plan\": [{\"id\": \"p1\", \"tokens\": 900}, {\"id\": \"p2\", \"tokens\": 900}]}"}}],`+
		`"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`)
}

// TestGridJobRuns runs the grid Job as the manifests say — its workers in
// parallel, `triage run` on the ConfigMap's config, the three stores on
// PostgreSQL through libpq's variables — against a stub model: every
// worker must finish, and no planning prompt may be asked twice (the
// workers share the run's leases and the LLM cache).
func TestGridJobRuns(t *testing.T) {
	env := pgEnv(t)
	bin := filepath.Join(buildImageBinaries(t), "triage")
	j, o := gridJob(t)
	stub := &planServer{asked: map[[32]byte]int{}}
	srv := httptest.NewServer(stub)
	defer srv.Close()
	secrets := map[string]map[string]string{
		"triage-endpoints": {"endpoints.json": fmt.Sprintf(`{"planner": {"base_url": %q, "model": "stub", "mode": "standard"}}`, srv.URL+"/v1")},
	}
	workers := int(*j.Spec.Parallelism)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	errs := make(chan error, workers)
	for i := range workers {
		pod := fmt.Sprintf("%s-%d", j.Name, i)
		spec := j.Spec.Template.Spec
		run := materialize(t, filepath.Join(t.TempDir(), pod), spec, spec.Containers[0], o.configMaps, secrets,
			map[string]string{"metadata.name": pod})
		go func() {
			cmd := exec.CommandContext(ctx, bin, run.args...)
			cmd.Env = append(append(append(os.Environ(), env...), run.env...), "HOME="+t.TempDir())
			out, err := cmd.CombinedOutput()
			if err != nil {
				err = fmt.Errorf("%s: %v\n%s", pod, err, out)
			} else {
				lines := strings.Split(strings.TrimSpace(string(out)), "\n")
				t.Logf("%s: %s", pod, lines[len(lines)-1])
			}
			errs <- err
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	stub.mu.Lock()
	defer stub.mu.Unlock()
	if len(stub.asked) == 0 {
		t.Fatal("no planning prompt reached the model")
	}
	for _, n := range stub.asked {
		if n != 1 {
			t.Errorf("a prompt was asked %d times; the workers share the cache and the leases", n)
		}
	}
	t.Logf("%d workers, %d distinct prompts, each asked once", workers, len(stub.asked))
}
