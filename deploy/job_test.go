package deploy

import (
	"bufio"
	"bytes"
	"path"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	sigsyaml "sigs.k8s.io/yaml"
)

// gridJob returns the grid Job and its kustomization's objects.
func gridJob(t *testing.T) (*batchv1.Job, *objects) {
	t.Helper()
	o := buildAll(t)["job"]
	if o == nil || len(o.jobs) != 1 {
		t.Fatal("the job kustomization must build one Job")
	}
	return o.jobs[0], o
}

// TestGridJob: parallel workers (parallelism > 1, one completion each:
// every worker ends when the whole grid is stored), restarted on failure,
// running `triage run` on a config from a ConfigMap whose stores are the
// shared PostgreSQL and whose files are all beside it in the mounted
// directory.
func TestGridJob(t *testing.T) {
	j, o := gridJob(t)
	s := j.Spec
	if s.Parallelism == nil || *s.Parallelism < 2 {
		t.Errorf("parallelism %v: want parallel workers (> 1)", s.Parallelism)
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Completions != *s.Parallelism {
		t.Errorf("completions %v, parallelism %v: each worker completes once, when the grid is done", s.Completions, s.Parallelism)
	}
	if s.Template.Spec.RestartPolicy != corev1.RestartPolicyOnFailure {
		t.Errorf("restartPolicy %s, want OnFailure", s.Template.Spec.RestartPolicy)
	}
	c := s.Template.Spec.Containers[0]
	if len(c.Args) < 2 || c.Args[0] != "run" {
		t.Fatalf("args %q: want run CONFIG", c.Args)
	}
	configPath := c.Args[1]
	srcs := resolveFile(s.Template.Spec, c, configPath)
	cm, key := configMapFor(srcs, o.configMaps)
	if cm == nil {
		t.Fatalf("%s is not a key of a mounted ConfigMap (%v)", configPath, srcs)
	}
	var cfg struct {
		RunStore         string   `json:"run_store"`
		GroundTruthStore string   `json:"ground_truth_store"`
		LLMCache         string   `json:"llm_cache"`
		Problems         []string `json:"problems"`
		GroundTruth      []string `json:"ground_truth"`
		Endpoints        string   `json:"endpoints"`
	}
	if err := sigsyaml.Unmarshal([]byte(cm.Data[key]), &cfg); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	for name, loc := range map[string]string{"run_store": cfg.RunStore, "ground_truth_store": cfg.GroundTruthStore, "llm_cache": cfg.LLMCache} {
		if loc != "postgres:///" {
			t.Errorf("%s: %s: %q; the workers share one PostgreSQL (postgres:/// with the PG* variables)", key, name, loc)
		}
	}
	// Relative files are read beside the config.
	dir := path.Dir(configPath)
	for _, f := range append(append(cfg.Problems, cfg.GroundTruth...), cfg.Endpoints) {
		if f == "" || path.IsAbs(f) {
			continue
		}
		if len(resolveFile(s.Template.Spec, c, path.Join(dir, f))) == 0 {
			t.Errorf("%s names %s, which no volume puts beside it", key, f)
		}
	}
	// The sample is the demo's synthetic data, line for line.
	for _, pair := range [][2]string{{"problems.jsonl", "problems.jsonl"}, {"ground-truth.jsonl", "ground_truth.jsonl"}} {
		demo := readRepoFile(t, "internal/runs/demo/data/"+pair[1])
		data, ok := cm.Data[pair[0]]
		if !ok {
			t.Errorf("ConfigMap %s has no %s", cm.Name, pair[0])
			continue
		}
		sc := bufio.NewScanner(strings.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if !bytes.Contains(demo, append(sc.Bytes(), '\n')) {
				t.Errorf("%s: %.60s… is not a line of the demo's synthetic %s", pair[0], sc.Text(), pair[1])
			}
		}
	}
}

// configMapFor returns the ConfigMap and key among srcs that exists.
func configMapFor(srcs []source, cms []*corev1.ConfigMap) (*corev1.ConfigMap, string) {
	for _, src := range srcs {
		for _, cm := range cms {
			if src.kind == "ConfigMap" && cm.Name == src.name {
				if _, ok := cm.Data[src.key]; ok {
					return cm, src.key
				}
			}
		}
	}
	return nil, ""
}
