package harnesslog

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
)

// Match says how a sample finds its problem.
type Match string

// The match rules.
const (
	// MatchID: the sample's id (Options.Key, default inspect_ai's sample
	// id) equals a problem's id — the dataset's native id, which is what
	// triage import gives AIME, GPQA, LCB and HLE problems.
	MatchID Match = "id"
	// MatchText: the sample's question (Options.Key, default inspect_ai's
	// input) equals a problem's text, or is the question of a choice
	// problem (its text followed by the options "A) …" the importers
	// append), whitespace runs counting as one space; exactly one problem
	// must match.
	MatchText Match = "text"
)

// Options say how Convert maps samples to records.
type Options struct {
	// Partial accepts the samples of inspect_ai logs that did not end in
	// "success" ("error", "cancelled"): without it they are refused, since
	// such a run may have left problems out.
	Partial bool
	// Model is the solver's model; "" takes the log's (inspect_ai's
	// eval.model), which lm-evaluation-harness samples files lack.
	Model string
	// Mode is the solver's mode, groundtruth.ModeStandard or ModeExtended.
	Mode string
	// Dataset is the problems' dataset; "" when the problem file has one.
	Dataset string
	// Problems are the canonical problems samples are matched to.
	Problems []problems.Problem
	// ProblemsFile names the file Problems came from in messages; "" is
	// "the problem file".
	ProblemsFile string
	// Match is MatchID or MatchText.
	Match Match
	// Key is the sample field holding the id or the text, as a dotted path
	// into the sample's JSON ("id", "metadata.record_id", "doc.question");
	// "" is inspect_ai's id or input, and required for lm-evaluation-harness.
	Key string
	// Scorer is the inspect_ai scorer or lm-evaluation-harness metric that
	// gives y; "" when each sample has exactly one.
	Scorer string
	// Filter is the lm-evaluation-harness filter to keep ("" when a file
	// has one).
	Filter string
	// Now stamps records whose log gives no time.
	Now time.Time
}

// Result is what Convert made.
type Result struct {
	// Records in sample order, one per kept sample.
	Records []groundtruth.Record
	// Skipped counts samples not converted by reason, e.g. lines of
	// another filter.
	Skipped map[string]int
}

// Reasons a sample is skipped rather than refused.
const (
	// SkipFilter: an lm-evaluation-harness line of another filter.
	SkipFilter = "lm-evaluation-harness line of another filter"
)

// Convert maps samples to records, or returns an *Error listing every
// refused sample (up to MaxIssues) and no records.
func Convert(samples []*Sample, opt Options) (*Result, error) {
	if opt.Mode != groundtruth.ModeStandard && opt.Mode != groundtruth.ModeExtended {
		return nil, fmt.Errorf("mode must be %q or %q, got %q", groundtruth.ModeStandard, groundtruth.ModeExtended, opt.Mode)
	}
	if opt.Match != MatchID && opt.Match != MatchText {
		return nil, fmt.Errorf("match must be %q or %q, got %q", MatchID, MatchText, opt.Match)
	}
	idx, err := newProblemIndex(opt.Problems, opt.ProblemsFile, opt.Dataset)
	if err != nil {
		return nil, err
	}
	filter, err := chooseFilter(samples, opt.Filter)
	if err != nil {
		return nil, err
	}
	for _, s := range samples {
		switch {
		case opt.Model == "" && s.Model == "":
			return nil, fmt.Errorf("%s names no model (lm-evaluation-harness samples files never do): give it with --model", s.File)
		case s.Harness == Inspect && s.LogStatus != "success" && !(opt.Partial && (s.LogStatus == "error" || s.LogStatus == "cancelled")):
			return nil, fmt.Errorf("%s: status: the eval's status is %q, not \"success\": its run may have left samples out (an \"error\" or \"cancelled\" log imports with --partial; a \"started\" one is still being written)", s.File, s.LogStatus)
		case opt.Key == "" && s.Harness == LMEval:
			return nil, fmt.Errorf("%s: lm-evaluation-harness logs only each document's position (doc_id): name the document's id or question field with --key (e.g. doc.id, doc.question)", s.File)
		}
	}
	res := &Result{Skipped: map[string]int{}}
	bad := &Error{}
	type sampleKey struct {
		groundtruth.Key
		sample int
	}
	seen := map[sampleKey]string{}
	for _, s := range samples {
		if s.Filter != filter {
			res.Skipped[SkipFilter]++
			continue
		}
		r, ok := convertOne(s, opt, idx, bad)
		if !ok {
			continue
		}
		k := sampleKey{r.Key, r.SampleIndex()}
		if first, dup := seen[k]; dup {
			bad.add(s.Where(), "", "gives problem %q, as %s does", r.ProblemID, first)
			continue
		}
		seen[k] = s.Ref
		res.Records = append(res.Records, r)
	}
	if err := bad.err(); err != nil {
		return nil, err
	}
	return res, nil
}

// chooseFilter returns the lm-evaluation-harness filter to keep.
func chooseFilter(samples []*Sample, want string) (string, error) {
	var filters []string
	for _, s := range samples {
		if !slices.Contains(filters, s.Filter) {
			filters = append(filters, s.Filter)
		}
	}
	switch {
	case want != "" && !slices.Contains(filters, want):
		return "", fmt.Errorf("no sample has filter %q (the logs have %s)", want, quoteList(filters))
	case want != "":
		return want, nil
	case len(filters) > 1:
		return "", fmt.Errorf("the logs score each document under several filters (%s): choose one with --filter", quoteList(filters))
	case len(filters) == 1:
		return filters[0], nil
	}
	return "", nil
}

// convertOne maps one sample, adding its refusals to bad.
func convertOne(s *Sample, opt Options, idx *problemIndex, bad *Error) (groundtruth.Record, bool) {
	before := len(bad.Issues)
	model := opt.Model
	if model == "" {
		model = s.Model
	}
	p, field, why := idx.find(s, opt)
	if why != "" {
		bad.add(s.Where(), field, "%s", why)
	}
	r := groundtruth.Record{
		Key:            groundtruth.Key{Solver: groundtruth.Solver{Model: model, Mode: opt.Mode}, Dataset: idx.dataset},
		FinishReason:   s.FinishReason,
		Latency:        s.Latency,
		MeasuredAt:     s.Started,
		Source:         s.Source(),
		ResponseSHA256: s.CompletionSHA256,
	}
	if p != nil {
		r.ProblemID = p.ID
	}
	// Epoch n is repeated Phase 0 sample n (SPEC §9): epoch 1 the ground
	// truth, later epochs its samples.
	switch {
	case s.Epoch > groundtruth.MaxSample:
		bad.add(s.Where(), "epoch", "at most %d samples of an item are stored, got epoch %d", groundtruth.MaxSample, s.Epoch)
	case s.Epoch > 1:
		r.Sample = s.Epoch
	}
	if r.MeasuredAt.IsZero() {
		r.MeasuredAt = opt.Now
	}
	if s.Error != "" {
		// A failed sample is what a failed Phase 0 call is: an item without
		// ground truth, kept so that it is counted (SPEC §1 gradeable).
		r.Error, r.CostRule = truncate(s.Error, groundtruth.MaxTextBytes), costrule.None
	} else {
		r.Gradeable, r.CostRule = true, costrule.HarnessOutput
		switch {
		case s.Output == nil:
			bad.add(s.Where(), s.OutputField, "no output token count: the cost (SPEC §1, reasoning included) cannot be known")
		case *s.Output < 0 || (s.Reasoning != nil && *s.Reasoning < 0):
			bad.add(s.Where(), s.OutputField, "negative token count")
		default:
			var reasoning int64
			if s.Reasoning != nil {
				reasoning = *s.Reasoning
			}
			if r.Cost = costrule.OfHarness(*s.Output, reasoning); r.Cost == 0 {
				bad.add(s.Where(), s.OutputField, "0 output tokens: a gradeable record needs a cost ≥ 1")
			}
		}
		y, field, why := score(s, opt.Scorer)
		if why != "" {
			bad.add(s.Where(), field, "%s", why)
		}
		r.Correct = y && !s.Truncated // a cut answer is incorrect, as in Phase 0 (SPEC §1)
		if p != nil && p.Unsolvable && r.Correct {
			r.Correct, r.LuckyGuess = false, true // SPEC §1: y = 0, kept for audit
		}
	}
	if len(bad.Issues) > before {
		return r, false
	}
	var v apperr.Violations
	groundtruth.ValidateRecord(&v, "", r)
	var ie *apperr.InvalidArgumentError
	if errors.As(v.Err(), &ie) {
		for _, fv := range ie.Violations {
			bad.add(s.Where(), fv.Field, "%s", fv.Description)
		}
	}
	return r, len(bad.Issues) == before
}

// score returns y from the sample's chosen score, or the field and reason
// it cannot.
func score(s *Sample, scorer string) (y bool, field, why string) {
	names := make([]string, 0, len(s.Scores))
	for n := range s.Scores {
		names = append(names, n)
	}
	sort.Strings(names)
	if scorer == "" {
		switch len(names) {
		case 0:
			return false, s.ScoreField, "no score: y cannot be known"
		case 1:
			scorer = names[0]
		default:
			return false, s.ScoreField, fmt.Sprintf("several scores (%s): choose one with --scorer", quoteList(names))
		}
	}
	raw, ok := s.Scores[scorer]
	if !ok {
		return false, s.ScoreField, fmt.Sprintf("no score %q (the sample has %s)", scorer, quoteList(names))
	}
	field = s.ScoreField + "." + scorer
	if s.ScoreField == "metrics" {
		field = scorer
	}
	y, err := binary(raw)
	if err != nil {
		return false, field, err.Error()
	}
	return y, "", ""
}

// binary reads a score value as y: inspect_ai's "C" (correct) and "I"
// (incorrect), "N" (no answer: not solved), true/false, 1/0 (1.0/0.0).
// Partial credit ("P", 0.5) and anything else is not a y.
func binary(raw json.RawMessage) (bool, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return false, fmt.Errorf("not a score value: %s", clip(raw))
	}
	switch v := v.(type) {
	case bool:
		return v, nil
	case string:
		switch v {
		case "C":
			return true, nil
		case "I", "N":
			return false, nil
		case "P":
			return false, fmt.Errorf(`"P" (partial credit) is not a y ∈ {0, 1}`)
		}
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err == nil && (f == 0 || f == 1) {
			return f == 1, nil
		}
	}
	return false, fmt.Errorf("%s is not a y ∈ {0, 1} (want \"C\", \"I\", \"N\", true, false, 1 or 0)", clip(raw))
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
