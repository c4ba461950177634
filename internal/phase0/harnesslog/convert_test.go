package harnesslog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/testkit/golden"
)

// now stamps records whose log has no time (lm-evaluation-harness).
var now = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

const (
	aimeJSON   = "testdata/inspect-aime.json"
	mmluEval   = "testdata/inspect-mmlu.eval"
	aimeLMEval = "testdata/samples_aime24_2026-03-04T05-06-07.123456.jsonl"
)

func testProblems(t *testing.T) []problems.Problem {
	t.Helper()
	ps, err := problems.ReadFile("testdata/problems.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// render writes records one JSON object a line, then what was skipped.
func render(t *testing.T, res *Result) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, r := range res.Records {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	for _, why := range []string{SkipFilter} {
		if n := res.Skipped[why]; n > 0 {
			fmt.Fprintf(&b, "skipped %d: %s\n", n, why)
		}
	}
	return b.Bytes()
}

// TestCutAnswerIsIncorrect: a sample whose output inspect_ai reports cut at
// the token limit scores y = 0 even when its scorer accepted it, as a cut
// answer does in Phase 0 (SPEC §1).
func TestCutAnswerIsIncorrect(t *testing.T) {
	for _, reason := range []string{"max_tokens", "model_length", "stop"} {
		t.Run(reason, func(t *testing.T) {
			log := inspectLog(t)
			sampleOf(log, 0)["output"].(map[string]any)["choices"].([]any)[0].(map[string]any)["stop_reason"] = reason
			samples, err := ReadFile(writeJSON(t, "log.json", log), "", DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			res, err := Convert(samples, Options{Mode: groundtruth.ModeExtended, Dataset: "aime", Match: MatchID, Problems: testProblems(t), Now: now})
			if err != nil {
				t.Fatal(err)
			}
			r := res.Records[0]
			if want := reason == "stop"; r.ProblemID != "2024-I-1" || r.Correct != want || r.FinishReason != reason {
				t.Errorf("record %+v; want 2024-I-1 correct=%v (its score is C) with finish reason %s", r, want, reason)
			}
		})
	}
}

// TestUnfinishedLogs: a log whose eval did not end in success is refused,
// naming its status; --partial (Options.Partial) accepts the samples of an
// "error" or "cancelled" one, never of a "started" one.
func TestUnfinishedLogs(t *testing.T) {
	tests := []struct {
		status  string
		partial bool
		ok      bool
	}{
		{"success", false, true},
		{"error", false, false},
		{"error", true, true},
		{"cancelled", true, true},
		{"started", true, false},
		{"", false, false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%q partial=%v", tc.status, tc.partial), func(t *testing.T) {
			log := inspectLog(t)
			log["status"] = tc.status
			samples, err := ReadFile(writeJSON(t, "log.json", log), "", DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			_, err = Convert(samples, Options{Mode: groundtruth.ModeExtended, Dataset: "aime", Match: MatchID, Problems: testProblems(t), Now: now, Partial: tc.partial})
			if tc.ok != (err == nil) {
				t.Fatalf("error %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("status: the eval's status is %q", tc.status)) {
				t.Errorf("error %v does not name the status", err)
			}
		})
	}
}

// TestConvertGolden converts each fixture log and compares the records with
// testdata/golden (go test -update rewrites them).
func TestConvertGolden(t *testing.T) {
	tests := []struct {
		name    string
		harness Harness
		files   []string
		opt     Options
	}{
		{"inspect-json-by-id", "", []string{aimeJSON}, Options{Mode: groundtruth.ModeExtended, Dataset: "aime", Match: MatchID}},
		{"inspect-eval-by-text", "", []string{mmluEval}, Options{Mode: groundtruth.ModeStandard, Dataset: "mmlu-math", Match: MatchText}},
		{"inspect-forced-format", Inspect, []string{mmluEval}, Options{Mode: groundtruth.ModeStandard, Dataset: "mmlu-math", Match: MatchText, Model: "claude-renamed"}},
		{"lmeval-by-doc-id", "", []string{aimeLMEval}, Options{Mode: groundtruth.ModeStandard, Dataset: "aime", Match: MatchID, Model: "qwen3-32b", Key: "doc.id", Scorer: "exact_match"}},
		{"lmeval-by-text", LMEval, []string{aimeLMEval}, Options{Mode: groundtruth.ModeStandard, Dataset: "aime", Match: MatchText, Model: "qwen3-32b", Key: "doc.problem"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var samples []*Sample
			for _, f := range tc.files {
				s, err := ReadFile(f, tc.harness, DefaultLimits())
				if err != nil {
					t.Fatal(err)
				}
				samples = append(samples, s...)
			}
			tc.opt.Problems, tc.opt.Now = testProblems(t), now
			res, err := Convert(samples, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			golden.File(t, filepath.Join("testdata", "golden", tc.name+".jsonl"), render(t, res))
		})
	}
}

// inspectLog returns the fixture JSON log decoded, for a test to change.
func inspectLog(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(aimeJSON)
	if err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	return log
}

// sampleOf returns the i-th sample of a decoded log.
func sampleOf(log map[string]any, i int) map[string]any {
	return log["samples"].([]any)[i].(map[string]any)
}

// writeJSON writes v to a temporary file named name.
func writeJSON(t *testing.T, name string, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRefusals: a sample without output tokens or a binary score, or that
// matches no problem (or several), is refused naming the file, the sample
// and the field, and Convert returns no record at all.
func TestRefusals(t *testing.T) {
	usage := func(s map[string]any) map[string]any {
		return s["model_usage"].(map[string]any)["openai/o3-mini"].(map[string]any)
	}
	tests := []struct {
		name   string
		change func(log map[string]any)
		opt    func(*Options)
		want   []string
		n      int // issues listed when not len(want): every sample's
	}{
		{"no usage at all", func(log map[string]any) {
			s := sampleOf(log, 0)
			delete(s, "model_usage")
			s["output"].(map[string]any)["usage"] = nil
		}, nil, []string{`sample id=2024-I-1,epoch=1: model_usage["openai/o3-mini"]: no output token count`}, 0},
		{"usage without output tokens", func(log map[string]any) {
			delete(usage(sampleOf(log, 1)), "output_tokens")
		}, nil, []string{`sample id=2024-I-2,epoch=1: model_usage["openai/o3-mini"].output_tokens: no output token count`}, 0},
		{"zero output tokens", func(log map[string]any) {
			u := usage(sampleOf(log, 0))
			u["output_tokens"], u["reasoning_tokens"] = 0, 0
		}, nil, []string{`id=2024-I-1,epoch=1: model_usage["openai/o3-mini"].output_tokens: 0 output tokens`}, 0},
		{"negative output tokens", func(log map[string]any) {
			usage(sampleOf(log, 0))["output_tokens"] = -3
		}, nil, []string{`id=2024-I-1,epoch=1: model_usage["openai/o3-mini"].output_tokens: negative token count`}, 0},
		{"no score", func(log map[string]any) {
			delete(sampleOf(log, 2), "scores")
		}, nil, []string{`id=2024-II-4,epoch=1: scores: no score: y cannot be known`}, 0},
		{"several scorers", func(log map[string]any) {
			sampleOf(log, 0)["scores"].(map[string]any)["model_graded"] = map[string]any{"value": "I"}
		}, nil, []string{`id=2024-I-1,epoch=1: scores: several scores ("match", "model_graded"): choose one with --scorer`}, 0},
		{"unknown scorer", nil, func(o *Options) { o.Scorer = "f1" }, []string{`id=2024-I-1,epoch=1: scores: no score "f1" (the sample has "match")`}, 4},
		{"partial credit", func(log map[string]any) {
			sampleOf(log, 0)["scores"].(map[string]any)["match"].(map[string]any)["value"] = "P"
		}, nil, []string{`id=2024-I-1,epoch=1: scores.match: "P" (partial credit) is not a y`}, 0},
		{"fractional score", func(log map[string]any) {
			sampleOf(log, 0)["scores"].(map[string]any)["match"].(map[string]any)["value"] = 0.5
		}, nil, []string{`id=2024-I-1,epoch=1: scores.match: 0.5 is not a y`}, 0},
		{"dict score", func(log map[string]any) {
			sampleOf(log, 0)["scores"].(map[string]any)["match"].(map[string]any)["value"] = map[string]any{"a": 1}
		}, nil, []string{`scores.match: {"a":1} is not a y`}, 0},
		{"unknown problem id", func(log map[string]any) {
			sampleOf(log, 1)["id"] = "2025-I-1"
		}, nil, []string{`id=2025-I-1,epoch=1: id: no problem of dataset "aime" has id "2025-I-1"`}, 0},
		{"problem of another dataset", nil, func(o *Options) { o.Dataset = "mmlu-math" }, []string{`id=2024-I-1,epoch=1: id: no problem of dataset "mmlu-math" has id "2024-I-1"`}, 4},
		{"missing key", nil, func(o *Options) { o.Key = "metadata.record_id" }, []string{`id=2024-I-1,epoch=1: metadata.record_id: missing`}, 4},
		{"two samples of one problem", func(log map[string]any) {
			sampleOf(log, 2)["id"] = "2024-I-1"
		}, nil, []string{`sample id=2024-I-1,epoch=1: gives problem "2024-I-1", as id=2024-I-1,epoch=1 does`}, 0},
		{"model name too long for the store", nil, func(o *Options) { o.Model = strings.Repeat("m", 300) }, []string{`id=2024-I-1,epoch=1: solver.model: must be at most 256 bytes`}, 4},
		{"epoch beyond the samples a store keeps", func(log map[string]any) {
			sampleOf(log, 3)["epoch"] = groundtruth.MaxSample + 1
		}, nil, []string{`id=2024-I-1,epoch=1001: epoch: at most 1000 samples of an item are stored, got epoch 1001`}, 0},
		{"every refusal listed", func(log map[string]any) {
			delete(sampleOf(log, 0), "scores")
			delete(sampleOf(log, 2), "scores")
		}, nil, []string{`id=2024-I-1,epoch=1: scores: no score`, `id=2024-II-4,epoch=1: scores: no score`}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := inspectLog(t)
			if tc.change != nil {
				tc.change(log)
			}
			path := writeJSON(t, "log.json", log)
			samples, err := ReadFile(path, "", DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Mode: groundtruth.ModeExtended, Dataset: "aime", Match: MatchID, Problems: testProblems(t), Now: now}
			if tc.opt != nil {
				tc.opt(&opt)
			}
			res, err := Convert(samples, opt)
			if err == nil {
				t.Fatalf("converted %d records; want a refusal", len(res.Records))
			}
			if res != nil {
				t.Errorf("a refusal returned records too")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), path+": sample ") || !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%v\nwant it to name %s and say %q", err, path, w)
				}
			}
			want := max(tc.n, len(tc.want))
			if n := strings.Count(err.Error(), "\n") + 1; n != want {
				t.Errorf("%d issues listed, want %d:\n%v", n, want, err)
			}
		})
	}
}

// TestOptionErrors: choices the logs leave open are refused before any
// sample is looked at, saying which flag settles them.
func TestOptionErrors(t *testing.T) {
	inspect, err := ReadFile(aimeJSON, "", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	lmeval, err := ReadFile(aimeLMEval, "", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	twoFilters := []*Sample{{Harness: LMEval, Filter: "strict-match"}, {Harness: LMEval, Filter: "flexible-extract"}}
	tests := []struct {
		name    string
		samples []*Sample
		opt     Options
		want    string
	}{
		{"no mode", inspect, Options{Dataset: "aime", Match: MatchID}, `mode must be "standard" or "extended"`},
		{"bad match", inspect, Options{Mode: "standard", Dataset: "aime", Match: "fuzzy"}, `match must be "id" or "text"`},
		{"several datasets", inspect, Options{Mode: "standard", Match: MatchID, ProblemsFile: "p.jsonl"}, `p.jsonl has several datasets ("aime", "mmlu-math"): choose one with --dataset`},
		{"unknown dataset", inspect, Options{Mode: "standard", Dataset: "gpqa", Match: MatchID}, `the problem file has no problem of dataset "gpqa"`},
		{"lm-eval without model", lmeval, Options{Mode: "standard", Dataset: "aime", Match: MatchID, Key: "doc.id"}, `names no model (lm-evaluation-harness samples files never do): give it with --model`},
		{"lm-eval without key", lmeval, Options{Mode: "standard", Dataset: "aime", Match: MatchID, Model: "m"}, `name the document's id or question field with --key`},
		{"several filters", twoFilters, Options{Mode: "standard", Dataset: "aime", Match: MatchID, Model: "m", Key: "doc.id"}, `several filters ("strict-match", "flexible-extract"): choose one with --filter`},
		{"unknown filter", twoFilters, Options{Mode: "standard", Dataset: "aime", Match: MatchID, Model: "m", Key: "doc.id", Filter: "none"}, `no sample has filter "none"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Problems, tc.opt.Now = testProblems(t), now
			_, err := Convert(tc.samples, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
	_, err = Convert(inspect, Options{Mode: "standard", Match: MatchID, Problems: []problems.Problem{}, ProblemsFile: "empty.jsonl", Now: now})
	if err == nil || !strings.Contains(err.Error(), "empty.jsonl has no problems") {
		t.Errorf("an empty problem file: %v, want it named", err)
	}
}

// TestSampleRules: what each kind of sample becomes.
func TestSampleRules(t *testing.T) {
	base := func() map[string]any { return inspectLog(t) }
	tests := []struct {
		name   string
		change func(log map[string]any)
		opt    func(*Options)
		check  func(t *testing.T, r groundtruth.Record)
	}{
		{"a failed sample is stored as not gradeable, like a failed call", func(log map[string]any) {
			s := sampleOf(log, 0)
			s["error"] = map[string]any{"message": "RateLimitError: 429", "traceback": "…"}
			delete(s, "scores")
		}, nil, func(t *testing.T, r groundtruth.Record) {
			if r.Gradeable || r.Correct || r.Cost != 0 || r.CostRule != "none" || r.Error != "RateLimitError: 429" {
				t.Errorf("%+v; want not gradeable, cost 0 of rule none, the error kept", r)
			}
		}},
		{"a lucky guess on an unsolvable item is not correct", nil, func(o *Options) {
			for i := range o.Problems {
				if o.Problems[i].ID == "2024-I-1" {
					o.Problems[i].Unsolvable = true
				}
			}
		}, func(t *testing.T, r groundtruth.Record) {
			if r.Correct || !r.LuckyGuess {
				t.Errorf("%+v; want y = 0 and the lucky guess kept (SPEC §1)", r)
			}
		}},
		{"a scorer chosen among several", func(log map[string]any) {
			for i := range 4 {
				sampleOf(log, i)["scores"].(map[string]any)["strict"] = map[string]any{"value": false}
			}
		}, func(o *Options) { o.Scorer = "strict" }, func(t *testing.T, r groundtruth.Record) {
			if r.Correct {
				t.Errorf("%+v; want the strict scorer's false", r)
			}
		}},
		{"an id in the metadata", func(log map[string]any) {
			for i, id := range []string{"2024-I-1", "2024-I-2", "2024-II-4", "2024-I-1"} {
				s := sampleOf(log, i)
				s["id"] = 17 + i
				s["metadata"] = map[string]any{"record": map[string]any{"id": id}}
			}
		}, func(o *Options) { o.Key = "metadata.record.id" }, func(t *testing.T, r groundtruth.Record) {
			if r.ProblemID != "2024-I-1" || r.Source != "log.json#id=17,epoch=1" {
				t.Errorf("%+v; want problem 2024-I-1 from sample 17", r)
			}
		}},
		{"the solver's usage, not a grader's", func(log map[string]any) {
			sampleOf(log, 0)["model_usage"].(map[string]any)["openai/gpt-4o"] = map[string]any{"output_tokens": 99999}
		}, nil, func(t *testing.T, r groundtruth.Record) {
			if r.Cost != 2048 {
				t.Errorf("cost %d; want the solver model's 2048", r.Cost)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := base()
			if tc.change != nil {
				tc.change(log)
			}
			ps := testProblems(t)
			dir := t.TempDir()
			path := filepath.Join(dir, "log.json")
			data, _ := json.Marshal(log)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			samples, err := ReadFile("log.json", "", DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Mode: groundtruth.ModeExtended, Dataset: "aime", Match: MatchID, Problems: ps, Now: now}
			if tc.opt != nil {
				tc.opt(&opt)
			}
			res, err := Convert(samples, opt)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, res.Records[0])
		})
	}
}
