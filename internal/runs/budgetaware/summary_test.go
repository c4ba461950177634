package budgetaware

import (
	"reflect"
	"testing"

	"github.com/triage-eval/triage/internal/store/runstore"
)

func res(model, dataset string, tokens, out int64, base, now, gradeable bool) runstore.BudgetAwareResult {
	return runstore.BudgetAwareResult{Model: model, Mode: "standard", Dataset: dataset, Tokens: tokens, OutputTokens: out,
		BaselineCorrect: base, Correct: now && gradeable, Gradeable: gradeable}
}

func TestSummarize(t *testing.T) {
	results := []runstore.BudgetAwareResult{
		res("a", "aime", 100, 90, true, true, true),   // kept, compliant
		res("a", "aime", 100, 150, true, false, true), // lost
		res("a", "aime", 100, 100, false, true, true), // newly, compliant (≤)
		res("a", "aime", 100, 0, true, false, false),  // not gradeable
		res("a", "gpqa", 50, 60, false, false, true),  // still wrong
		res("b", "gpqa", 50, 10, false, true, true),   // newly, compliant
	}
	got := Summarize(results)
	want := []Row{
		{Model: "a", Mode: "standard", Dataset: "aime", N: 3, NotGradeable: 1, AccBaseline: 2.0 / 3, AccBudgetAware: 2.0 / 3, Compliance: 2.0 / 3, Finished: 3, ComplianceFinished: 2.0 / 3, KeptCorrect: 1, LostCorrect: 1, NewlyCorrect: 1},
		{Model: "a", Mode: "standard", Dataset: "gpqa", N: 1, AccBaseline: 0, AccBudgetAware: 0, Compliance: 0, Finished: 1, StillWrong: 1},
		{Model: "a", Mode: "standard", Dataset: AllDatasets, N: 4, NotGradeable: 1, AccBaseline: 0.5, AccBudgetAware: 0.5, Compliance: 0.5, Finished: 4, ComplianceFinished: 0.5, KeptCorrect: 1, LostCorrect: 1, NewlyCorrect: 1, StillWrong: 1},
		{Model: "b", Mode: "standard", Dataset: "gpqa", N: 1, AccBudgetAware: 1, Compliance: 1, Finished: 1, ComplianceFinished: 1, NewlyCorrect: 1},
		{Model: "b", Mode: "standard", Dataset: AllDatasets, N: 1, AccBudgetAware: 1, Compliance: 1, Finished: 1, ComplianceFinished: 1, NewlyCorrect: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Summarize:\n got %+v\nwant %+v", got, want)
	}
	for _, r := range got {
		if r.KeptCorrect+r.LostCorrect+r.NewlyCorrect+r.StillWrong != r.N {
			t.Errorf("%+v: the four counts do not sum to N", r)
		}
	}
	// SPEC §5: compliance over all N counts an output cut at max_tokens
	// as compliant when a_i ≥ max_tokens; over the finished re-solves it
	// does not count at all.
	capped := []runstore.BudgetAwareResult{
		{Model: "c", Mode: "extended", Dataset: "aime", Tokens: 5000, OutputTokens: 4096, MaxTokens: 4096, Truncated: true, Gradeable: true}, // cut; cannot break a_i
		{Model: "c", Mode: "extended", Dataset: "aime", Tokens: 1000, OutputTokens: 4096, MaxTokens: 4096, Truncated: true, Gradeable: true}, // cut above a_i
		{Model: "c", Mode: "extended", Dataset: "aime", Tokens: 1000, OutputTokens: 800, MaxTokens: 4096, Gradeable: true, Correct: true},    // finished within
		{Model: "c", Mode: "extended", Dataset: "aime", Tokens: 1000, OutputTokens: 1200, MaxTokens: 4096, Gradeable: true},                  // finished over
	}
	row := Summarize(capped)[0]
	if row.N != 4 || row.Compliance != 0.5 || row.Finished != 2 || row.ComplianceFinished != 0.5 || row.Uncapped != 1 || row.Truncated != 2 {
		t.Errorf("capped row %+v: want N 4, compliance 0.5 over all, 0.5 over 2 finished, 1 uncapped, 2 truncated", row)
	}
	if Summarize(nil) != nil {
		t.Error("no results should give no rows")
	}
}
