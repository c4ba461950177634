package orchestrator

import "testing"

// TestConfigPath: a relative path is resolved from the config's folder,
// that of a store given as sqlite:PATH too (its prefix kept); absolute
// paths, URLs and "off" are left as they are.
func TestConfigPath(t *testing.T) {
	c := &Config{dir: "/study"}
	for _, tc := range []struct{ in, want string }{
		{"run.db", "/study/run.db"},
		{"runs/main.db", "/study/runs/main.db"},
		{"/abs/run.db", "/abs/run.db"},
		{"sqlite:run.db", "sqlite:/study/run.db"},
		{"sqlite:/abs/run.db", "sqlite:/abs/run.db"},
		{"postgres://u@h/db", "postgres://u@h/db"},
		{"off", "off"},
		{"", ""},
	} {
		if got := c.Path(tc.in); got != tc.want {
			t.Errorf("Path(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := (&Config{}).Path("sqlite:run.db"); got != "sqlite:run.db" {
		t.Errorf("a config built in code: Path(sqlite:run.db) = %q, want it as given", got)
	}
}
