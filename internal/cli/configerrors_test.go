package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigProblemsNameTheirLine: a setting of the run config that is
// wrong, or names a file that is not there, is reported with the config's
// file, the line and the setting, as a failure of the command (exit 1), not
// of its flags.
func TestConfigProblemsNameTheirLine(t *testing.T) {
	s := newQuoteStudy(t)
	tests := []struct {
		name, from, to, want string
	}{
		{"missing problem file", "problems: [aime.jsonl]", "problems: [aime.jsonl, nope.jsonl]", "run.yaml:4: problems[1]: open "},
		{"missing endpoints file", "endpoints: endpoints.json", "endpoints: nope.json", "run.yaml:5: endpoints: open "},
		{"bad α", "alphas: [0.5, 1]", "alphas: [0.5, 1.5]", "run.yaml:9: alphas[1]: must be in (0, 1]"},
		{"unknown key", "pool_size: 15", "pool_siz: 15", "run.yaml:8: pool_siz: unknown key"},
	}
	good, err := os.ReadFile(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(string(good), tt.from) {
				t.Fatalf("the study's config lacks %q", tt.from)
			}
			if err := os.WriteFile(s.cfg, []byte(strings.Replace(string(good), tt.from, tt.to, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			env, _, _ := testEnv(nil)
			err := Run(context.Background(), []string{"quote", s.cfg}, env)
			if err == nil || errors.Is(err, ErrUsage) {
				t.Fatalf("quote: %v, want a failure that is not a usage error", err)
			}
			if want := filepath.Join(s.dir, tt.want); !strings.Contains(err.Error(), want) {
				t.Errorf("quote: %v\nwant it to contain %q", err, want)
			}
		})
	}
}
