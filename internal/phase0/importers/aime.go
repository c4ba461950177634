package importers

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

// AIMEOptions configures the AIME importer.
type AIMEOptions struct {
	// Dataset is the dataset name; default "aime".
	Dataset string
	// Year is the contest year of files in the prompt/answer form; 0 takes
	// it from the file name ("aime2025…", "aime25…", else a 20xx in it).
	// Files in the url form take the year from each record's url.
	Year int
}

var (
	aimeURL         = regexp.MustCompile(`(\d{4})_AIME_(I{1,2})_Problems/Problem_(\d+)`)
	aimeYearInName  = regexp.MustCompile(`(?i)aime[_-]?(\d{4}|\d{2})(?:\D|$)`)
	yearInName      = regexp.MustCompile(`(?:^|\D)(20\d\d)(?:\D|$)`)
	aimeInstruction = regexp.MustCompile(`\s*Please reason step by step, and put your final answer within \\boxed\{\}\.?\s*$`)
)

// AIME imports AIME problems from JSONL in either form:
//
//   - url form (id, problem, solution, answer, url): the id is
//     "YEAR-I-N" or "YEAR-II-N", parsed from the url
//     (".../2024_AIME_I_Problems/Problem_5" → "2024-I-5"); the numeric id
//     is ignored.
//   - prompt form (prompt, answer): record k of a file is YEAR-I-k for
//     k ≤ 15 and YEAR-II-(k−15) for 16 ≤ k ≤ 30; the trailing "Please
//     reason step by step, and put your final answer within \boxed{}."
//     is removed from the prompt.
//
// The answer (a string or a number) must be an integer from 0 to 999; it
// is stored without leading zeros. Grading: kind math, integer. Malformed
// records abort the import.
func AIME(ins []Input, opt AIMEOptions) ([]problems.Problem, *Report, error) {
	b := newBuilder("aime")
	dataset := orDefault(opt.Dataset, "aime")
	for _, in := range ins {
		var promptK int
		var form, yearErr string
		year := opt.Year
		err := eachRecord(in, b.rep, &b.iss, func(r record) {
			var id, text string
			switch {
			case r.present("url"):
				if form == "prompt" {
					r.iss.at(r.at, "url", "file mixes the url form and the prompt form")
					return
				}
				form = "url"
				url := r.str("url")
				m := aimeURL.FindStringSubmatch(url)
				if m == nil {
					if url != "" {
						r.iss.addf(r.at, "url", "does not name an AIME problem (YEAR_AIME_I|II_Problems/Problem_N), got %q", url)
					}
					break
				}
				n, _ := strconv.Atoi(m[3])
				if n < 1 || n > 15 {
					r.iss.addf(r.at, "url", "problem number must be 1 to 15, got %d", n)
					break
				}
				id = fmt.Sprintf("%s-%s-%d", m[1], m[2], n)
				text = strings.TrimSpace(r.str("problem"))
			case r.present("prompt"):
				if form == "url" {
					r.iss.at(r.at, "prompt", "file mixes the url form and the prompt form")
					return
				}
				form = "prompt"
				promptK++
				if year == 0 {
					year = yearFromName(in.Name)
					if year == 0 {
						if yearErr == "" {
							yearErr = "cannot tell the contest year of the prompt/answer form from the file name; give it (--year)"
							r.iss.add(in.Name, "", yearErr)
						}
						return
					}
				}
				switch {
				case promptK <= 15:
					id = fmt.Sprintf("%d-I-%d", year, promptK)
				case promptK <= 30:
					id = fmt.Sprintf("%d-II-%d", year, promptK-15)
				default:
					r.iss.addf(r.at, "", "record %d: the prompt/answer form has at most 30 records (I-1…I-15, II-1…II-15)", promptK)
					return
				}
				text = strings.TrimSpace(aimeInstruction.ReplaceAllString(r.str("prompt"), ""))
				if text == "" && r.present("prompt") {
					r.iss.at(r.at, "prompt", "nothing left after removing the instruction")
				}
			default:
				r.iss.at(r.at, "", `neither "url" (with "problem") nor "prompt": not an AIME record`)
				return
			}
			answer, ok := aimeAnswer(r)
			if !ok || id == "" || text == "" {
				return
			}
			b.emit(r.at, problems.Problem{ID: id, Dataset: dataset, Text: text},
				grading.Spec{Kind: grading.KindMath, Answer: answer, Integer: true})
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return b.result()
}

// aimeAnswer returns the record's answer as a normalized integer string.
func aimeAnswer(r record) (string, bool) {
	if !r.present("answer") {
		r.iss.at(r.at, "answer", "required")
		return "", false
	}
	raw := r.f["answer"]
	var s string
	switch kindOf(raw)[0] {
	case 's':
		_ = json.Unmarshal(raw, &s)
	case 'n':
		s = string(raw)
	default:
		r.iss.at(r.at, "answer", "must be an integer, got "+kindOf(raw))
		return "", false
	}
	t := strings.TrimSpace(s)
	n, err := strconv.ParseUint(t, 10, 32)
	if err != nil || t == "" || t[0] == '+' {
		r.iss.addf(r.at, "answer", "must be an integer, got %q", s)
		return "", false
	}
	if n > 999 {
		r.iss.addf(r.at, "answer", "an AIME answer is 0 to 999, got %d", n)
		return "", false
	}
	return strconv.FormatUint(n, 10), true
}

// yearFromName finds the contest year in a file name: "aime2025", "aime_25",
// else any 20xx; 0 when there is none.
func yearFromName(name string) int {
	base := filepath.Base(name)
	if m := aimeYearInName.FindStringSubmatch(base); m != nil {
		y, _ := strconv.Atoi(m[1])
		if y < 100 {
			y += 2000
		}
		return y
	}
	if m := yearInName.FindStringSubmatch(base); m != nil {
		y, _ := strconv.Atoi(m[1])
		return y
	}
	return 0
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
