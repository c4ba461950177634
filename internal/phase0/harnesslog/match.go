package harnesslog

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/triage-eval/triage/internal/store/problems"
)

// problemIndex finds the problems of one dataset by id and by text.
type problemIndex struct {
	dataset string
	byID    map[string]*problems.Problem
	// byText lists the problems of each normalized text.
	byText map[string][]*problems.Problem
	// byQuestion lists the problems by each text that, followed by
	// optionsStart, begins their normalized text: a choice problem's
	// question.
	byQuestion map[string][]*problems.Problem
}

// newProblemIndex indexes the problems of dataset ("" when ps has one);
// file names the file ps came from in errors ("" for "the problem file").
func newProblemIndex(ps []problems.Problem, file, dataset string) (*problemIndex, error) {
	if file == "" {
		file = "the problem file"
	}
	var datasets []string
	for _, p := range ps {
		if !contains(datasets, p.Dataset) {
			datasets = append(datasets, p.Dataset)
		}
	}
	switch {
	case len(ps) == 0:
		return nil, fmt.Errorf("%s has no problems", file)
	case dataset == "" && len(datasets) > 1:
		return nil, fmt.Errorf("%s has several datasets (%s): choose one with --dataset", file, quoteList(datasets))
	case dataset == "":
		dataset = datasets[0]
	case !contains(datasets, dataset):
		return nil, fmt.Errorf("%s has no problem of dataset %q (it has %s)", file, dataset, quoteList(datasets))
	}
	idx := &problemIndex{dataset: dataset, byID: map[string]*problems.Problem{}, byText: map[string][]*problems.Problem{}, byQuestion: map[string][]*problems.Problem{}}
	for i := range ps {
		p := &ps[i]
		if p.Dataset != dataset {
			continue
		}
		idx.byID[p.ID] = p
		t := normalize(p.Text)
		idx.byText[t] = append(idx.byText[t], p)
		for at := 0; ; {
			k := strings.Index(t[at:], optionsStart)
			if k < 0 {
				break
			}
			q := t[:at+k]
			idx.byQuestion[q] = append(idx.byQuestion[q], p)
			at += k + 1
		}
	}
	return idx, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// optionsStart begins the options the choice importers append to a
// question (a blank line, then "A) …"), once normalized.
const optionsStart = " A) "

// normalize collapses every whitespace run to one space and trims.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// find returns the sample's problem, or the field and reason it has none.
func (idx *problemIndex) find(s *Sample, opt Options) (*problems.Problem, string, string) {
	key, value, why := sampleKey(s, opt)
	if why != "" {
		return nil, key, why
	}
	if opt.Match == MatchID {
		if p := idx.byID[value]; p != nil {
			return p, "", ""
		}
		return nil, key, fmt.Sprintf("no problem of dataset %q has id %q", idx.dataset, clip([]byte(value)))
	}
	t := normalize(value)
	if t == "" {
		return nil, key, "empty question text"
	}
	cands := idx.byText[t]
	if len(cands) == 0 {
		cands = idx.byQuestion[t]
	}
	switch len(cands) {
	case 0:
		return nil, key, fmt.Sprintf("no problem of dataset %q has this question text (%q)", idx.dataset, clip([]byte(t)))
	case 1:
		return cands[0], "", ""
	}
	ids := make([]string, 0, 3)
	for _, p := range cands[:min(3, len(cands))] {
		ids = append(ids, p.ID)
	}
	return nil, key, fmt.Sprintf("the question text matches %d problems (%s…): match by id instead", len(cands), quoteList(ids))
}

// sampleKey returns the field used to match and its value as text.
func sampleKey(s *Sample, opt Options) (field, value, why string) {
	key := opt.Key
	if key == "" {
		if opt.Match == MatchText {
			return "input", s.Text, ""
		}
		key = "id" // inspect_ai's; Convert requires a key for lm-evaluation-harness
	}
	raw, ok := lookup(s.Fields, key)
	if !ok {
		return key, "", "missing"
	}
	if opt.Match == MatchID {
		v, ok := scalarText(raw)
		if !ok {
			return key, "", fmt.Sprintf("an id must be a string or an integer, got %s", clip(raw))
		}
		return key, v, ""
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		if t := inputText(raw); t != "" {
			return key, t, ""
		}
		return key, "", fmt.Sprintf("a question must be a string or a message list, got %s", clip(raw))
	}
	return key, v, ""
}

// lookup follows a dotted path through JSON objects.
func lookup(fields map[string]json.RawMessage, path string) (json.RawMessage, bool) {
	parts := strings.Split(path, ".")
	raw, ok := fields[parts[0]]
	for _, part := range parts[1:] {
		if !ok {
			return nil, false
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return nil, false
		}
		raw, ok = obj[part]
	}
	return raw, ok
}
