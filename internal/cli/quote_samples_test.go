package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/runs/quote"
	"github.com/triage-eval/triage/internal/store/problems"
)

// TestQuoteCountsMissingSamples stores some samples of a k-sample
// baseline and quotes it: every sample not stored (or stored and not
// kept) is a call the baseline still makes, each judged alone — a stored
// ground truth does not stand for its missing samples 2..k.
func TestQuoteCountsMissingSamples(t *testing.T) {
	// 30 problems; every case stores sample 1 (gradeable) of all of them.
	tests := []struct {
		name string
		k    int
		// stored[j] is how many problems (the first ones) have sample j
		// stored, for j ≥ 2; bad[j] how many of those are not gradeable;
		// stale[j] how many of those (the last ones) measured another
		// version of their problem. With digests, every other record says
		// it measured the problem as it is.
		stored, bad, stale map[int]int
		digests            bool
		flags              []string
		want               int64
	}{
		{name: "k=1, ground truth stored", k: 1, want: 0},
		{name: "k=3, samples 2..3 missing", k: 3, want: 60},
		{name: "k=3, sample 2 for 10", k: 3, stored: map[int]int{2: 10}, want: 50},
		{name: "k=3, sample 2 for all, 3 for 7", k: 3, stored: map[int]int{2: 30, 3: 7}, want: 23},
		{name: "k=3, sample 3 without sample 2", k: 3, stored: map[int]int{3: 12}, want: 48},
		{name: "k=3, all stored", k: 3, stored: map[int]int{2: 30, 3: 30}, want: 0},
		{name: "k raised to 5, sample 2 for 10", k: 5, stored: map[int]int{2: 10}, want: 110},
		{name: "k raised to 5, 2..3 stored", k: 5, stored: map[int]int{2: 30, 3: 30}, want: 60},
		{name: "k=3, 4 samples 2 not gradeable", k: 3, stored: map[int]int{2: 10}, bad: map[int]int{2: 4}, want: 54},
		{name: "k=3, not gradeable kept", k: 3, stored: map[int]int{2: 10}, bad: map[int]int{2: 4}, flags: []string{"--keep-ungradeable"}, want: 50},
		{name: "k=3, rerun", k: 3, stored: map[int]int{2: 30, 3: 30}, flags: []string{"--rerun"}, want: 90},
		{name: "k=1, digests of the problems as they are", k: 1, digests: true, want: 0},
		{name: "k=1, 5 stale", k: 1, stale: map[int]int{1: 5}, digests: true, want: 5},
		{name: "k=1, none gradeable, 5 of them stale, not gradeable kept", k: 1, bad: map[int]int{1: 30}, stale: map[int]int{1: 5}, flags: []string{"--keep-ungradeable"}, want: 5},
		{name: "k=3, sample 2 for 10, 3 of them stale", k: 3, stored: map[int]int{2: 10}, stale: map[int]int{2: 3}, want: 53},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newQuoteStudy(t)
			var gt strings.Builder
			for j := 1; j <= 5; j++ {
				n := tt.stored[j]
				if j == 1 {
					n = len(s.probs)
				}
				for i, p := range s.probs[:n] {
					gradeable := fmt.Sprintf(`"gradeable": %v`, i >= tt.bad[j])
					if i < tt.bad[j] {
						gradeable += `, "error": "the call timed out"`
					}
					switch {
					case i >= n-tt.stale[j]:
						p.Text += " (as first written)"
						gradeable += fmt.Sprintf(`, "problem_sha256": %q`, problems.Digest(p))
					case tt.digests:
						gradeable += fmt.Sprintf(`, "problem_sha256": %q`, problems.Digest(p))
					}
					fmt.Fprintf(&gt, `{"model": "qwen3-8b", "mode": "extended", "dataset": %q, "problem_id": %q, "cost": 100, "correct": false, %s, "sample": %d}`+"\n",
						p.Dataset, p.ID, gradeable, j)
				}
			}
			gtFile := filepath.Join(s.dir, "gt.jsonl")
			if err := os.WriteFile(gtFile, []byte(gt.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := Run(context.Background(), []string{"ground-truth", "import", "--config", s.cfg, gtFile}, s.env); err != nil {
				t.Fatalf("import: %v\n%s", err, s.log)
			}
			raw, err := os.ReadFile(s.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(s.cfg, fmt.Appendf(raw, "baseline: {samples: %d}\n", tt.k), 0o644); err != nil {
				t.Fatal(err)
			}
			p0 := s.quote(t, tt.flags...)[quote.Baseline]
			if p0.Calls != tt.want || p0.Cached != 0 {
				t.Errorf("phase 0 = %d calls (%d cached), want %d", p0.Calls, p0.Cached, tt.want)
			}
		})
	}
}
