package importers

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

// MMLUOptions configures the MMLU and MMLU-Abstain importers.
type MMLUOptions struct {
	// Dataset is the dataset name; default "mmlu-math" (MMLU) or
	// "mmlu-math-abstain" (MMLU-Abstain).
	Dataset string
	// Subjects keeps only these subjects; default all (MMLU) or
	// MMLUAbstainSubjects (MMLU-Abstain).
	Subjects []string
	// Shuffle shuffles the options with Seed (see Permutation); off by
	// default: MMLU's options are shown in source order.
	Shuffle bool
	// Seed seeds the shuffle.
	Seed uint64
}

// MMLUAbstainSubjects are the subjects MMLU-Math-Abstain uses by default.
var MMLUAbstainSubjects = []string{"college_mathematics", "abstract_algebra", "high_school_mathematics"}

// GPQAOptions configures the GPQA and GPQA-Abstain importers.
type GPQAOptions struct {
	// Dataset is the dataset name; default "gpqa" (GPQA) or
	// "gpqa-abstain" (GPQA-Abstain).
	Dataset string
	// Seed seeds the option shuffle (see Permutation); GPQA is always
	// shuffled, since its correct answer comes first in the source.
	Seed uint64
}

// choiceItem is one multiple-choice source record.
type choiceItem struct {
	at       loc
	id       string
	question string   // as in the source
	options  []string // trimmed, in source order
	correct  int      // source index of the correct option
	subject  string
}

// spec returns the item's displayed options and grading spec, shuffled
// with seed when shuffle is set.
func (it choiceItem) spec(shuffle bool, seed uint64) ([]string, grading.Spec) {
	s := grading.Spec{Kind: grading.KindChoice}
	if !shuffle {
		s.Choices, s.Answer = it.options, letters[it.correct:it.correct+1]
		return s.Choices, s
	}
	perm := Permutation(seed, it.id, len(it.options))
	s.Choices, s.Answer = shuffled(it.options, it.correct, perm)
	s.Shuffle = &grading.Shuffle{Seed: seed, Permutation: perm}
	return s.Choices, s
}

// MMLU imports MMLU JSONL records (question, type or subject, choices,
// answer as an index or a letter). The id is the subject and the first 12
// hex digits of a SHA-256 of subject, question and choices, e.g.
// "abstract_algebra-3f9a1c2b4d5e"; an exact repeat of a record is skipped
// as a duplicate. Text: the question, a blank line and "A) …" lines.
// Grading: kind choice. Malformed records abort the import.
func MMLU(ins []Input, opt MMLUOptions) ([]problems.Problem, *Report, error) {
	b := newBuilder("mmlu")
	dataset := orDefault(opt.Dataset, "mmlu-math")
	err := eachMMLU(ins, b, opt.Subjects, func(it choiceItem) {
		opts, spec := it.spec(opt.Shuffle, opt.Seed)
		b.emit(it.at, problems.Problem{ID: it.id, Dataset: dataset, Text: withOptions(it.question, opts)}, spec)
	})
	if err != nil {
		return nil, nil, err
	}
	return b.result()
}

// MMLUAbstain imports the unsolvable MMLU-Math-Abstain variants (see
// FinalQuestion): ids are the MMLU ids with "-abstain" appended, options
// and answer as MMLU would import them, Unsolvable set.
func MMLUAbstain(ins []Input, opt MMLUOptions) ([]problems.Problem, *Report, error) {
	b := newBuilder("mmlu-abstain")
	dataset := orDefault(opt.Dataset, "mmlu-math-abstain")
	subjects := opt.Subjects
	if len(subjects) == 0 {
		subjects = MMLUAbstainSubjects
	}
	err := eachMMLU(ins, b, subjects, func(it choiceItem) {
		emitAbstain(b, it, dataset, opt.Shuffle, opt.Seed)
	})
	if err != nil {
		return nil, nil, err
	}
	return b.result()
}

// GPQA imports GPQA rows from CSV or JSONL with the Hugging Face columns
// "Question", "Correct Answer", "Incorrect Answer 1".."3" and "Record ID"
// (the id); other columns are ignored. The four options are always
// shuffled (see Permutation). Text: the question, a blank line and
// "A) …" lines. Grading: kind choice. Malformed records abort the import.
func GPQA(ins []Input, opt GPQAOptions) ([]problems.Problem, *Report, error) {
	b := newBuilder("gpqa")
	dataset := orDefault(opt.Dataset, "gpqa")
	err := eachGPQA(ins, b, func(it choiceItem) {
		opts, spec := it.spec(true, opt.Seed)
		b.emit(it.at, problems.Problem{ID: it.id, Dataset: dataset, Text: withOptions(it.question, opts)}, spec)
	})
	if err != nil {
		return nil, nil, err
	}
	return b.result()
}

// GPQAAbstain imports the unsolvable GPQA-Abstain variants (see
// FinalQuestion): ids are Record IDs with "-abstain" appended, options
// shuffled exactly as GPQA would, Unsolvable set.
func GPQAAbstain(ins []Input, opt GPQAOptions) ([]problems.Problem, *Report, error) {
	b := newBuilder("gpqa-abstain")
	dataset := orDefault(opt.Dataset, "gpqa-abstain")
	err := eachGPQA(ins, b, func(it choiceItem) {
		emitAbstain(b, it, dataset, true, opt.Seed)
	})
	if err != nil {
		return nil, nil, err
	}
	return b.result()
}

const noFinalQuestion = "no final question sentence (AbstentionBench recipe)"

func emitAbstain(b *builder, it choiceItem, dataset string, shuffle bool, seed uint64) {
	q, ok := FinalQuestion(it.question)
	if !ok {
		b.rep.skip(it.at, noFinalQuestion, it.id)
		return
	}
	opts, spec := it.spec(shuffle, seed)
	b.emit(it.at, problems.Problem{ID: it.id + "-abstain", Dataset: dataset, Text: withOptions(q, opts), Unsolvable: true}, spec)
}

// FinalQuestion applies the AbstentionBench recipe to a question's text
// (the question alone, before any options): when the text ends with a
// final sentence that follows ". ", ends in "?" and contains no ".", "?"
// or "!" before that "?", it returns that sentence. This is the regular
// expression `(?<=\. )[^.?!]*\?$` with Python's meaning of "$" (the end,
// or before a final newline). A final sentence of only "?" (nothing but
// blanks before it) does not count.
func FinalQuestion(question string) (string, bool) {
	t := strings.TrimSuffix(question, "\n")
	if !strings.HasSuffix(t, "?") {
		return "", false
	}
	body := t[:len(t)-1]
	i := strings.LastIndexByte(body, '.')
	if i < 0 || i+1 >= len(body) || body[i+1] != ' ' {
		return "", false
	}
	rest := body[i+2:]
	if strings.ContainsAny(rest, "?!") || strings.TrimSpace(rest) == "" {
		return "", false
	}
	return rest + "?", true
}

// subjectNotSelected is the skip reason of a subject outside the selection.
const subjectNotSelected = "subject not selected"

func eachMMLU(ins []Input, b *builder, subjects []string, fn func(choiceItem)) error {
	keep := map[string]bool{}
	for _, s := range subjects {
		keep[s] = true
	}
	unselected := newListKeep(FlagSubjects, subjects)
	defer func() { b.rep.keep(subjectNotSelected, unselected.String()) }()
	for _, in := range ins {
		err := eachRecord(in, b.rep, &b.iss, func(r record) {
			before := r.iss.count()
			subjectKey := "type"
			if !r.present("type") && r.present("subject") {
				subjectKey = "subject"
			}
			it := choiceItem{at: r.at, subject: strings.TrimSpace(r.str(subjectKey)), question: r.str("question")}
			it.options = stringList(r, "choices")
			it.correct = answerIndex(r, "answer", len(it.options))
			if r.iss.count() > before {
				return
			}
			if len(keep) > 0 && !keep[it.subject] {
				b.rep.skip(r.at, subjectNotSelected, it.subject)
				unselected.add(it.subject)
				return
			}
			h := sha256.New()
			for _, s := range append([]string{it.subject, it.question}, it.options...) {
				h.Write([]byte(s))
				h.Write([]byte{0})
			}
			it.id = it.subject + "-" + hex.EncodeToString(h.Sum(nil))[:12]
			fn(it)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// stringList returns field k as a list of 2 to 26 non-blank strings,
// trimmed, or nil after adding an issue.
func stringList(r record, k string) []string {
	if !r.present(k) {
		r.iss.at(r.at, k, "required")
		return nil
	}
	var list []string
	if err := json.Unmarshal(r.f[k], &list); err != nil {
		r.iss.at(r.at, k, "must be an array of strings, got "+kindOf(r.f[k]))
		return nil
	}
	if len(list) < 2 || len(list) > len(letters) {
		r.iss.addf(r.at, k, "must have 2 to %d options, got %d", len(letters), len(list))
		return nil
	}
	for i, s := range list {
		list[i] = strings.TrimSpace(s)
		if list[i] == "" {
			r.iss.addf(r.at, k, "option %d is empty", i)
			return nil
		}
	}
	return list
}

// answerIndex returns field k, an option index (0-based) or letter, as an
// index below n, or -1 after adding an issue.
func answerIndex(r record, k string, n int) int {
	if !r.present(k) {
		r.iss.at(r.at, k, "required")
		return -1
	}
	var idx int
	var letter string
	switch {
	case json.Unmarshal(r.f[k], &idx) == nil:
	case json.Unmarshal(r.f[k], &letter) == nil && len(strings.TrimSpace(letter)) == 1 && strings.Contains(letters, strings.TrimSpace(letter)):
		idx = strings.Index(letters, strings.TrimSpace(letter))
	default:
		r.iss.addf(r.at, k, "must be an option index or letter, got %s", r.f[k])
		return -1
	}
	if n == 0 {
		return -1 // the options are at fault
	}
	if idx < 0 || idx >= n {
		r.iss.addf(r.at, k, "must be an option index 0 to %d, got %s", n-1, r.f[k])
		return -1
	}
	return idx
}

var gpqaIncorrect = []string{"Incorrect Answer 1", "Incorrect Answer 2", "Incorrect Answer 3"}

func eachGPQA(ins []Input, b *builder, fn func(choiceItem)) error {
	for _, in := range ins {
		err := eachRecord(in, b.rep, &b.iss, func(r record) {
			before := r.iss.count()
			it := choiceItem{at: r.at, id: strings.TrimSpace(r.str("Record ID")), question: r.str("Question")}
			it.options = []string{strings.TrimSpace(r.str("Correct Answer"))}
			for _, k := range gpqaIncorrect {
				it.options = append(it.options, strings.TrimSpace(r.str(k)))
			}
			if r.iss.count() > before {
				return
			}
			fn(it)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
