package importers

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

// HLEOptions configures the Humanity's Last Exam importer.
type HLEOptions struct {
	// Dataset is the dataset name; default "hle", or "hle-<slug>" when
	// Categories names exactly one category (e.g. "hle-math").
	Dataset string
	// Categories keeps only these categories, compared by Slug (so "Math",
	// "math" and "Computer Science/AI" / "computer-science-ai" match);
	// empty keeps all.
	Categories []string
}

// HLEDataset is the dataset name HLE uses for opt.
func HLEDataset(opt HLEOptions) string {
	switch {
	case opt.Dataset != "":
		return opt.Dataset
	case len(opt.Categories) == 1 && Slug(opt.Categories[0]) != "":
		return "hle-" + Slug(opt.Categories[0])
	}
	return "hle"
}

// Slug lowers s and turns each run of other characters than letters and
// digits into one "-": "Computer Science/AI" → "computer-science-ai".
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	return b.String()
}

// HLE imports Humanity's Last Exam records from JSONL or Parquet (fields
// id, question, image, answer, answer_type, category; raw_subject,
// rationale and any others are ignored). Items outside the selected
// categories, then items with an image (a non-empty image), are
// skipped. answer_type exactMatch gives kind exact; multipleChoice gives
// kind choice with the answer letter and no Choices (the options are in
// the question text). A multipleChoice answer that is not one letter
// (after trimming "(B)" or "B." decoration) is skipped. The id is the
// source id. Malformed records abort the import.
func HLE(ins []Input, opt HLEOptions) ([]problems.Problem, *Report, error) {
	b := newBuilder("hle")
	dataset := HLEDataset(opt)
	keep := map[string]bool{}
	for _, c := range opt.Categories {
		keep[Slug(c)] = true
	}
	unselected := newListKeep(FlagCategory, opt.Categories)
	for _, in := range ins {
		fn := func(r record) {
			before := r.iss.count()
			id := strings.TrimSpace(r.str("id"))
			question := strings.TrimSpace(r.str("question"))
			answer := strings.TrimSpace(r.str("answer"))
			atype := strings.TrimSpace(r.str("answer_type"))
			category := r.optStr("category")
			image := hasImage(r)
			if r.iss.count() > before {
				return
			}
			if atype != "exactMatch" && atype != "multipleChoice" {
				r.iss.addf(r.at, "answer_type", "must be exactMatch or multipleChoice, got %q", atype)
				return
			}
			if len(keep) > 0 && !keep[Slug(category)] {
				b.rep.skip(r.at, categoryNotSelected, id+", "+category)
				unselected.add(category)
				return
			}
			if image {
				b.rep.skip(r.at, "has an image", id)
				return
			}
			spec := grading.Spec{Kind: grading.KindExact, Answer: answer, AnswerType: atype}
			if atype == "multipleChoice" {
				letter, ok := choiceLetter(answer)
				if !ok {
					b.rep.skip(r.at, "multipleChoice answer is not one letter", id+", "+truncate(answer, 20))
					return
				}
				spec = grading.Spec{Kind: grading.KindChoice, Answer: letter, AnswerType: atype}
			}
			b.emit(r.at, problems.Problem{ID: id, Dataset: dataset, Text: question}, spec)
		}
		f, rd, err := detect(in)
		switch {
		case err != nil:
		case f == formatParquet:
			err = eachParquet(in, rd, []string{"id", "question", "answer", "answer_type"}, []string{"image", "category"}, b.rep, &b.iss, fn)
		default:
			err = eachRecord(Input{Name: in.Name, R: rd}, b.rep, &b.iss, fn)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	b.rep.keep(categoryNotSelected, unselected.String())
	return b.result()
}

// categoryNotSelected is the skip reason of a category outside the
// selection.
const categoryNotSelected = "category not selected"

// hasImage reports a non-blank image: a string, or (Parquet group
// columns such as {bytes, path}) any non-blank value in an array.
func hasImage(r record) bool {
	if !r.present("image") {
		return false
	}
	raw := r.f["image"]
	switch kindOf(raw) {
	case "string":
		s, _ := r.asString("image")
		return strings.TrimSpace(s) != ""
	case "array":
		var vals []any
		_ = json.Unmarshal(raw, &vals)
		for _, v := range vals {
			if s, ok := v.(string); !ok || strings.TrimSpace(s) != "" {
				return true
			}
		}
		return false
	}
	r.iss.at(r.at, "image", "must be a string, got "+kindOf(raw))
	return false
}

// choiceLetter returns answer as one capital letter, accepting "B", "b",
// "(B)", "B)", "B." and surrounding blanks.
func choiceLetter(answer string) (string, bool) {
	s := strings.TrimSpace(answer)
	s = strings.TrimSuffix(strings.TrimSuffix(s, "."), ")")
	s = strings.TrimPrefix(s, "(")
	s = strings.ToUpper(strings.TrimSpace(s))
	if len(s) == 1 && s[0] >= 'A' && s[0] <= 'Z' {
		return s, true
	}
	return "", false
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
