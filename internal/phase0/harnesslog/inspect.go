package harnesslog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// inspectHeader is the part of an inspect_ai EvalLog read here: the
// header.json of a .eval archive, or the top level of a .json log.
type inspectHeader struct {
	Version int    `json:"version"`
	Status  string `json:"status"`
	Eval    struct {
		Model   string `json:"model"`
		Created string `json:"created"`
		Task    string `json:"task"`
	} `json:"eval"`
}

// inspectUsage is inspect_ai's ModelUsage (src/inspect_ai/model/_model_output.py).
type inspectUsage struct {
	OutputTokens    *int64 `json:"output_tokens"`
	ReasoningTokens *int64 `json:"reasoning_tokens"`
}

// inspectSample is the part of an inspect_ai EvalSample read here
// (src/inspect_ai/log/_log.py).
type inspectSample struct {
	ID     json.RawMessage `json:"id"`
	Epoch  int             `json:"epoch"`
	Input  json.RawMessage `json:"input"`
	Output struct {
		Completion string `json:"completion"`
		Choices    []struct {
			StopReason string `json:"stop_reason"`
		} `json:"choices"`
		Usage *inspectUsage `json:"usage"`
	} `json:"output"`
	Scores map[string]struct {
		Value json.RawMessage `json:"value"`
	} `json:"scores"`
	ModelUsage map[string]inspectUsage `json:"model_usage"`
	StartedAt  string                  `json:"started_at"`
	TotalTime  *float64                `json:"total_time"`
	Error      *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// parseInspectHeader decodes a header; where names it in errors.
func parseInspectHeader(data []byte, where string) (*inspectHeader, error) {
	var h inspectHeader
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fileErr(where, "", "not an inspect_ai log header: %v", jsonReason(err))
	}
	if h.Eval.Model == "" {
		return nil, fileErr(where, "eval.model", "missing: not an inspect_ai log (its eval spec names the model)")
	}
	return &h, nil
}

// parseInspectSample decodes one EvalSample logged under h; index is its
// position in the file, member its archive member ("" in a .json log).
func parseInspectSample(data []byte, file, member string, index int, h *inspectHeader) (*Sample, error) {
	where := fmt.Sprintf("%s: sample %d", file, index+1)
	if member != "" {
		where = file + ": " + member
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fileErr(where, "", "not a JSON object: %v", jsonReason(err))
	}
	var in inspectSample
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fileErr(where, "", "not an inspect_ai sample: %v", jsonReason(err))
	}
	id, ok := scalarText(in.ID)
	if !ok {
		return nil, fileErr(where, "id", "must be a string or an integer, got %s", clip(in.ID))
	}
	if in.Epoch < 1 {
		return nil, fileErr(where, "epoch", "must be ≥ 1, got %d", in.Epoch)
	}
	s := &Sample{
		Harness: Inspect, File: file, Ref: "id=" + id + ",epoch=" + strconv.Itoa(in.Epoch), Index: index, Epoch: in.Epoch,
		Model: h.Eval.Model, Fields: keepFields(fields), Text: inputText(in.Input), CompletionSHA256: sha256Hex(in.Output.Completion),
		ScoreField: "scores", Scores: map[string]json.RawMessage{}, LogStatus: h.Status,
	}
	if len(in.Output.Choices) > 0 {
		s.FinishReason = in.Output.Choices[0].StopReason
		s.Truncated = inspectCut[s.FinishReason]
	}
	// The solver model's usage over the whole sample (every generate call);
	// output.usage (the last call alone) only when model_usage lacks it.
	if u, ok := in.ModelUsage[h.Eval.Model]; ok {
		s.Output, s.Reasoning = u.OutputTokens, u.ReasoningTokens
		s.OutputField = "model_usage[" + strconv.Quote(h.Eval.Model) + "].output_tokens"
	} else if in.Output.Usage != nil {
		s.Output, s.Reasoning = in.Output.Usage.OutputTokens, in.Output.Usage.ReasoningTokens
		s.OutputField = "output.usage.output_tokens"
	} else {
		s.OutputField = "model_usage[" + strconv.Quote(h.Eval.Model) + "]"
	}
	for name, sc := range in.Scores {
		s.Scores[name] = sc.Value
	}
	if in.Error != nil {
		s.Error = in.Error.Message
		if s.Error == "" {
			s.Error = "the sample failed (inspect_ai logged an error without a message)"
		}
	}
	if in.TotalTime != nil && *in.TotalTime >= 0 && *in.TotalTime < math.MaxInt64/float64(time.Second) {
		s.Latency = time.Duration(*in.TotalTime * float64(time.Second))
	}
	for _, t := range []string{in.StartedAt, h.Eval.Created} {
		if at, err := time.Parse(time.RFC3339Nano, t); err == nil {
			s.Started = at.UTC()
			break
		}
	}
	return s, nil
}

// inputText is the question of an inspect_ai input: the string, or the text
// of the last user message of a message list ("" when there is none).
func inputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &msgs) != nil {
		return ""
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		if json.Unmarshal(msgs[i].Content, &s) == nil {
			return s
		}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(msgs[i].Content, &parts) != nil {
			return ""
		}
		var texts []string
		for _, p := range parts {
			if p.Type == "text" {
				texts = append(texts, p.Text)
			}
		}
		return strings.Join(texts, "\n")
	}
	return ""
}

// scalarText renders a JSON string as itself and a JSON integer as its
// digits; anything else is not an id.
func scalarText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, s != ""
	}
	if _, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return string(raw), true
	}
	return "", false
}

// clip shows at most 60 bytes of a JSON value in a message.
func clip(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	if len(raw) > 60 {
		return string(raw[:60]) + "…"
	}
	return string(raw)
}

// jsonReason is a decoding error without the "json: " prefix.
func jsonReason(err error) string { return strings.TrimPrefix(err.Error(), "json: ") }

// inspectCut are inspect_ai's stop reasons of an output cut at a token
// limit (StopReason in inspect_ai/model/_model_output.py).
var inspectCut = map[string]bool{"max_tokens": true, "model_length": true}
