package harnesslog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// Fields of an lm-evaluation-harness sample line that TRIAGE reads beyond
// the harness's own (lm_eval/evaluator.py, log_samples): the harness logs no
// token counts, so a samples file is importable only once each line carries
// them under these keys (integers), added by whoever ran the model.
const (
	// LMEvalOutputTokens is the output tokens of the sample's generation,
	// reasoning included when the provider counts it there.
	LMEvalOutputTokens = "output_tokens"
	// LMEvalReasoningTokens is its reasoning tokens, when counted apart.
	LMEvalReasoningTokens = "reasoning_tokens"
)

// lmevalLine is the part of a samples_*.jsonl line read here.
type lmevalLine struct {
	DocID     json.RawMessage `json:"doc_id"`
	Resps     json.RawMessage `json:"resps"`
	Filter    string          `json:"filter"`
	Metrics   []string        `json:"metrics"`
	Output    *int64          `json:"output_tokens"`
	Reasoning *int64          `json:"reasoning_tokens"`
}

// ReadLMEval reads an lm-evaluation-harness samples_*.jsonl file: one
// sample per line (doc_id, doc, target, arguments, resps, filtered_resps,
// filter, metrics and each metric's value), at most lim.MaxEntryBytes a
// line and lim.MaxFileBytes in all. Blank lines are skipped.
func ReadLMEval(name string, r io.Reader, lim Limits) ([]*Sample, error) {
	lr := &io.LimitedReader{R: r, N: lim.MaxFileBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 64<<10), int(min(lim.MaxEntryBytes, 1<<31-1)))
	var out []*Sample
	line := 0
	for sc.Scan() {
		line++
		if lr.N <= 0 { // more than MaxFileBytes were read: this line may be cut
			return nil, fileErr(name, "", "more than the %d bytes a log may have", lim.MaxFileBytes)
		}
		data := sc.Bytes()
		if line == 1 {
			data = jsonloc.BlankBOM(data)
		}
		data = bytes.TrimSpace(data)
		if len(data) == 0 {
			continue
		}
		if len(out) == lim.MaxSamples {
			return nil, fileErr(name, "", "more than %d samples", lim.MaxSamples)
		}
		s, err := parseLMEvalLine(data, name, line, len(out))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fileErr(fmt.Sprintf("%s:%d", name, line+1), "", "cannot read: %v (a line may have at most %d bytes)", err, lim.MaxEntryBytes)
	}
	if lr.N <= 0 { // more than MaxFileBytes were read
		return nil, fileErr(name, "", "more than the %d bytes a log may have", lim.MaxFileBytes)
	}
	return out, nil
}

// parseLMEvalLine decodes line number line (1-based), the index-th sample.
func parseLMEvalLine(data []byte, name string, line, index int) (*Sample, error) {
	where := fmt.Sprintf("%s:%d", name, line)
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fileErr(where, "", "not a JSON object: %v", jsonReason(err))
	}
	var in lmevalLine
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fileErr(where, "", "not an lm-evaluation-harness sample: %v", jsonReason(err))
	}
	docID, ok := scalarText(in.DocID)
	if !ok {
		return nil, fileErr(where, "doc_id", "must be an integer or a string, got %s", clip(in.DocID))
	}
	s := &Sample{
		Harness: LMEval, File: name, Ref: "line=" + strconv.Itoa(line) + ",doc_id=" + docID, Index: index, Epoch: 1,
		Fields: keepFields(fields), Output: in.Output, Reasoning: in.Reasoning, OutputField: LMEvalOutputTokens,
		Scores: map[string]json.RawMessage{}, ScoreField: "metrics", Filter: in.Filter,
	}
	for _, m := range in.Metrics {
		if v, ok := fields[m]; ok {
			s.Scores[m] = v
		}
	}
	// resps is one list of responses per request; a generation task has one
	// request with one response, the completion.
	var resps [][]json.RawMessage
	if json.Unmarshal(in.Resps, &resps) == nil && len(resps) > 0 && len(resps[0]) > 0 {
		var completion string
		if json.Unmarshal(resps[0][0], &completion) == nil {
			s.CompletionSHA256 = sha256Hex(completion)
		}
	}
	return s, nil
}
