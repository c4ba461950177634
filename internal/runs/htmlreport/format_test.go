package htmlreport

import (
	"testing"

	"github.com/triage-eval/triage/internal/runs/report"
)

func TestFormats(t *testing.T) {
	cases := []struct{ got, want string }{
		{report.FormatNumber(-0.0004), "0.000"},
		{slug("η_U / η_E at α = 0.5 — strategy llm"), "u-e-at-0-5-strategy-llm"},
		{slug("efficiency_llm_default_a0.5"), "efficiency-llm-default-a0-5"},
		{report.FormatCount(10000), "10,000"},
		{report.FormatCount(999), "999"},
		{report.FormatCount(1234567), "1,234,567"},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
