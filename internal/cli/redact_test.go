package cli

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// TestStorePasswordsStayOutOfMessagesAndTheManifest: a config naming its
// three stores by PostgreSQL URLs with a password runs, resumes, reports
// and lists without the password in any message (output or error), and
// the run store's manifest records the config with the password masked
// (sqldb.Redact), the rest of each URL as given.
func TestStorePasswordsStayOutOfMessagesAndTheManifest(t *testing.T) {
	ctx := context.Background()
	const secret = "Sup3rSecret" // PostgreSQL's trust auth accepts any password
	u, err := url.Parse(pgtest.Location(t))
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), secret)
	location := u.String()
	unreachable := "postgres://postgres:" + secret + "@127.0.0.1:1/db?connect_timeout=1"

	ms := newModelServer(t, 0)
	dir := t.TempDir()
	config := writeGrid(t, dir, ms.URL)
	raw, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	shared := strings.NewReplacer(
		"run_store: run.db", "run_store: "+location,
		"ground_truth_store: gt.db", "ground_truth_store: "+location,
		"llm_cache: llm-cache.db", "llm_cache: "+location,
	).Replace(string(raw))
	if err := os.WriteFile(config, []byte(shared), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"run", []string{"run", "--progress", "plain", config}, false},
		{"run again (resumes)", []string{"run", "--progress", "plain", config}, false},
		{"report CONFIG", []string{"report", config}, false},
		{"report URL", []string{"report", "--out", t.TempDir(), location}, false},
		{"ground-truth list CONFIG", []string{"ground-truth", "list", config}, false},
		{"ground-truth list of an unreachable store", []string{"ground-truth", "list", "--store", unreachable}, true},
		{"report of an unreachable store", []string{"report", "--out", t.TempDir(), unreachable}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, out, logs := testEnv(nil)
			err := Run(ctx, tc.args, env)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want one: %v\n%s%s", err, tc.wantErr, out, logs)
			}
			for what, text := range map[string]string{"stdout": out.String(), "stderr": logs.String(), "the error": errString(err)} {
				if strings.Contains(text, secret) {
					t.Errorf("%s holds the password:\n%s", what, text)
				}
			}
		})
	}

	rs, err := runstore.Open(ctx, location)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	m, err := rs.Manifest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(m.Config), secret) {
		t.Errorf("the manifest's config holds the password: %s", m.Config)
	}
	var recorded orchestrator.Config
	if err := json.Unmarshal(m.Config, &recorded); err != nil {
		t.Fatal(err)
	}
	masked := sqldb.Redact(location)
	for setting, got := range map[string]string{"run_store": recorded.RunStore, "ground_truth_store": recorded.GroundTruthStore, "llm_cache": recorded.LLMCache} {
		if got != masked {
			t.Errorf("the manifest records %s %q, want %q", setting, got, masked)
		}
	}
}

// errString is err's message, "" for nil.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestStoreNamesInMessages: the lines that name a config's store — where
// the ground truth went (baseline) and what to give triage report (run) —
// mask a URL's password, and name the config instead of a PostgreSQL run
// store's URL for the report.
func TestStoreNamesInMessages(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, store, executor string
		wantWhere, wantReport string
	}{
		{name: "SQLite", store: "run.db", wantWhere: filepath.Join(dir, "run.db"), wantReport: filepath.Join(dir, "run.db")},
		{name: "postgres with a password", store: "postgres://u:Sup3rSecret@h/db", wantWhere: "postgres://u:xxxxx@h/db", wantReport: filepath.Join(dir, "run.yaml")},
		{name: "postgres with a password parameter", store: "postgres://u@h/db?password=Sup3rSecret", wantWhere: "postgres://u@h/db?password=xxxxx", wantReport: filepath.Join(dir, "run.yaml")},
		{name: "postgres from the PG variables", store: "postgres:///", wantWhere: "postgres:///", wantReport: filepath.Join(dir, "run.yaml")},
		{name: "remote executor", store: "run.db", executor: "exec:9000", wantWhere: "the executor at exec:9000", wantReport: filepath.Join(dir, "run.db")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			config := filepath.Join(dir, "run.yaml")
			yaml := "run_store: " + tc.store + "\nground_truth_store: " + tc.store + "\nproblems: [p.jsonl]\nsolvers: [{model: m, mode: standard}]\n"
			if tc.executor != "" {
				yaml += "services: {executor: " + tc.executor + "}\n"
			}
			if err := os.WriteFile(config, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := orchestrator.LoadConfig(config)
			if err != nil {
				t.Fatal(err)
			}
			if got := where(cfg); got != tc.wantWhere {
				t.Errorf("where = %q, want %q", got, tc.wantWhere)
			}
			if got := reportArg(cfg); got != tc.wantReport {
				t.Errorf("reportArg = %q, want %q", got, tc.wantReport)
			}
		})
	}
}
