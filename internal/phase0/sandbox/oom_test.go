package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// lowerOOMScore on a plain file, where every write succeeds: it lowers,
// never raises. (Its refusals are /proc's: TestServerSurvivesMemoryAttack
// checks the real file, with and without CAP_SYS_RESOURCE.)
func TestLowerOOMScore(t *testing.T) {
	cases := []struct {
		was, want int
		says      string
	}{
		{300, -500, "lowered from 300 to -500"},
		{0, -500, "lowered from 0 to -500"},
		{-500, -500, "already at or below -500"},
		{-900, -900, "already at or below -500"},
	}
	for _, c := range cases {
		file := filepath.Join(t.TempDir(), "oom_score_adj")
		if err := os.WriteFile(file, []byte(strconv.Itoa(c.was)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, says, err := lowerOOMScore(file, -500)
		if err != nil || got != c.want || !strings.Contains(says, c.says) {
			t.Errorf("from %d: %d %q %v, want %d %q", c.was, got, says, err, c.want, c.says)
		}
	}
	if _, _, err := lowerOOMScore(filepath.Join(t.TempDir(), "missing"), -500); err == nil {
		t.Error("a missing file: no error")
	}
}
