package orchestrator

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestManifestConfig: the config a run store records is resolved from the
// folder its run_store places the run store in; when the run store is
// elsewhere, relative files are an error naming them, absolute ones and
// remote services are not.
func TestManifestConfig(t *testing.T) {
	abs := t.TempDir()
	tests := []struct {
		name                 string
		runStore, gt, remote string
		problems             string
		path                 string // the run store's path as given
		wantGT, wantErr      string
	}{
		{name: "beside the config", runStore: "run.db", gt: "gt.db", problems: "p.jsonl", path: filepath.Join("exp", "run.db"), wantGT: filepath.Join("exp", "gt.db")},
		{name: "in a subfolder", runStore: filepath.Join("out", "run.db"), gt: "gt.db", problems: "p.jsonl", path: filepath.Join(abs, "out", "run.db"), wantGT: filepath.Join(abs, "gt.db")},
		{name: "in the working folder", runStore: "run.db", gt: "gt.db", problems: "p.jsonl", path: "run.db", wantGT: "gt.db"},
		{name: "moved", runStore: "run.db", gt: "gt.db", problems: "p.jsonl", path: filepath.Join("exp", "moved.db"), wantErr: "ground_truth_store gt.db, problems p.jsonl relative to a folder"},
		{name: "moved, absolute files", runStore: "run.db", gt: filepath.Join(abs, "gt.db"), problems: filepath.Join(abs, "p.jsonl"), path: "moved.db", wantGT: filepath.Join(abs, "gt.db")},
		{name: "moved, postgres", runStore: "run.db", gt: "postgres://h/db", problems: filepath.Join(abs, "p.jsonl"), path: "moved.db", wantGT: "postgres://h/db"},
		{name: "moved, remote executor", runStore: "run.db", remote: "exec:9000", problems: filepath.Join(abs, "p.jsonl"), path: "moved.db"},
		{name: "moved, relative problems", runStore: "run.db", remote: "exec:9000", problems: "p.jsonl", path: "moved.db", wantErr: "problems p.jsonl relative"},
		{name: "postgres run store, relative problems", runStore: "postgres://u:secret@h/runs", remote: "exec:9000", problems: "p.jsonl", path: "postgres://u:secret@h/runs", wantErr: "the run store postgres://u:xxxxx@h/runs is not in"},
		{name: "postgres, password masked", runStore: "postgres://u:xxxxx@h/runs", gt: "postgres://u:xxxxx@h/db", problems: filepath.Join(abs, "p.jsonl"), path: "postgres://u:secret@h/runs", wantErr: "ground_truth_store postgres://u:xxxxx@h/db without its password"},
		{name: "postgres, password masked, remote executor", runStore: "postgres://u:xxxxx@h/runs", gt: "postgres://u:xxxxx@h/db", remote: "exec:9000", problems: filepath.Join(abs, "p.jsonl"), path: "postgres://u:secret@h/runs", wantGT: "postgres://u:xxxxx@h/db"},
		{name: "postgres, password recorded by an older build", runStore: "run.db", gt: "postgres://u:secret@h/db", problems: filepath.Join(abs, "p.jsonl"), path: "moved.db", wantGT: "postgres://u:secret@h/db"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{RunStore: tc.runStore, GroundTruthStore: tc.gt, Problems: []string{tc.problems}, Solvers: []Solver{{Model: "m", Mode: "standard"}}, Services: Services{Executor: tc.remote}}
			raw, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ManifestConfig(raw, tc.path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "secret") {
					t.Fatalf("error %v, want one containing %q, without the password", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if gt := got.Path(got.GroundTruthStore); gt != tc.wantGT {
				t.Errorf("ground-truth store %q, want %q", gt, tc.wantGT)
			}
			if got.Services.Executor != tc.remote || got.PoolSize != 30 {
				t.Errorf("executor %q, pool size %d: want %q and the default 30", got.Services.Executor, got.PoolSize, tc.remote)
			}
		})
	}
	if _, err := ManifestConfig(nil, "run.db"); err == nil {
		t.Error("a run store without a config: no error")
	}
}

// TestRecordedConfig: the manifest records the config with every store's
// password masked and everything else as given, and leaves the config the
// run goes on with alone.
func TestRecordedConfig(t *testing.T) {
	for _, tc := range []struct {
		name, store, want string
	}{
		{"SQLite file", "runs/main.db", "runs/main.db"},
		{"sqlite: prefix", "sqlite:runs/main.db", "sqlite:runs/main.db"},
		{"postgres without a password", "postgres://u@h:5432/db?sslmode=disable", "postgres://u@h:5432/db?sslmode=disable"},
		{"postgres from the PG variables", "postgres:///", "postgres:///"},
		{"password in the URL", "postgres://u:Sup3rSecret@h:5432/db", "postgres://u:xxxxx@h:5432/db"},
		{"password parameter", "postgresql://u@h/db?password=Sup3rSecret&sslmode=require", "postgresql://u@h/db?password=xxxxx&sslmode=require"},
		{"cache off", "off", "off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &Config{Name: "n", RunStore: tc.store, GroundTruthStore: tc.store, LLMCache: tc.store, Endpoints: "endpoints.json"}
			got := recordedConfig(cfg)
			if got.RunStore != tc.want || got.GroundTruthStore != tc.want || got.LLMCache != tc.want {
				t.Errorf("recorded stores %q, %q, %q, want %q", got.RunStore, got.GroundTruthStore, got.LLMCache, tc.want)
			}
			if got.Name != "n" || got.Endpoints != "endpoints.json" {
				t.Errorf("recorded name %q, endpoints %q: the rest must be as given", got.Name, got.Endpoints)
			}
			if cfg.RunStore != tc.store || cfg.GroundTruthStore != tc.store || cfg.LLMCache != tc.store {
				t.Errorf("the run's own config changed to %q, %q, %q: it must connect with %q", cfg.RunStore, cfg.GroundTruthStore, cfg.LLMCache, tc.store)
			}
			raw, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(raw), "Sup3rSecret") {
				t.Errorf("the recorded config holds the password: %s", raw)
			}
		})
	}
}
