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
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
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
