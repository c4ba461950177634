package figures

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/runs/report"
)

// intervalPhrase describes the report's bootstrap intervals, e.g. "95%
// percentile bootstrap intervals over the pools (10,000 resamples, seed 0;
// none below 2 pools)".
func intervalPhrase(b metrics.Bootstrap) string {
	resamples, tail := b.Resamples, b.TailPerMille
	if resamples <= 0 {
		resamples = metrics.DefaultResamples
	}
	if tail <= 0 {
		tail = metrics.DefaultTailPerMille
	}
	level := strconv.FormatFloat(100-float64(2*tail)/10, 'f', -1, 64)
	return fmt.Sprintf("%s%% percentile bootstrap intervals over the pools (%s resamples, seed %d; none below 2 pools)",
		level, report.FormatCount(resamples), b.Seed)
}

// modePhrase names the bar colours of the modes present.
func modePhrase(modes []string) string {
	var parts []string
	for _, m := range sortedModes(modes) {
		switch m {
		case "standard":
			parts = append(parts, "navy standard inference")
		case "extended":
			parts = append(parts, "teal extended reasoning")
		default:
			parts = append(parts, "brown mode "+m)
		}
	}
	return "Bar colour: " + strings.Join(parts, ", ") + "."
}

// sentence joins non-empty parts with spaces.
func sentence(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}
