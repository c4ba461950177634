package harnesslog

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
)

// BenchmarkConvertText converts an MMLU-sized log (14,000 samples) matched
// by question text against as many choice problems whose questions share
// a long common beginning (which defeated a first index on text heads:
// 1.2 s/op; indexed by question, 84 ms/op on the 2-core test machine).
func BenchmarkConvertText(b *testing.B) {
	const n = 14_000
	ps := make([]problems.Problem, n)
	samples := make([]*Sample, n)
	out := int64(100)
	for i := range n {
		q := fmt.Sprintf("Which of the following statements about the group Z_%d is true?", i)
		ps[i] = problems.Problem{ID: fmt.Sprint("mmlu-", i), Dataset: "mmlu-math", Text: q + "\n\nA) one\nB) two\nC) three\nD) four"}
		samples[i] = &Sample{
			Harness: Inspect, File: "log.eval", Ref: fmt.Sprintf("id=%d,epoch=1", i), Epoch: 1, Model: "m", Text: q,
			Output: &out, OutputField: "model_usage", Scores: map[string]json.RawMessage{"choice": json.RawMessage(`"C"`)}, ScoreField: "scores",
		}
	}
	opt := Options{Mode: groundtruth.ModeStandard, Match: MatchText, Problems: ps, Now: now}
	b.ReportAllocs()
	for b.Loop() {
		res, err := Convert(samples, opt)
		if err != nil || len(res.Records) != n {
			b.Fatal(err)
		}
	}
}
