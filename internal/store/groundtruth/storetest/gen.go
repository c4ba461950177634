package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"iter"
	"strconv"
	"time"

	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// Epoch is the MeasuredAt of the first generated record; later ones follow
// at odd microsecond steps.
var Epoch = time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC)

// Gen describes a lazily generated set of valid records: every combination
// of Models × Modes × Datasets × Problems, in key order (models, modes,
// datasets and problem ids all sort in generation order). Variant changes
// every value column, so a second import with another Variant updates every
// record.
type Gen struct {
	Models   int
	Datasets int
	Problems int
	Variant  int
}

// Len is the number of records g yields.
func (g Gen) Len() int { return g.Models * 2 * g.Datasets * g.Problems }

// Solver returns the generated solver of model m: mode extended for an even
// mode, standard for an odd one (the modes' key order).
func Solver(m, mode int) groundtruth.Solver {
	s := groundtruth.Solver{Model: "model-" + pad(m, 3), Mode: groundtruth.ModeExtended}
	if mode%2 == 1 {
		s.Mode = groundtruth.ModeStandard
	}
	return s
}

// Dataset returns the name of the d-th generated dataset.
func Dataset(d int) string { return "ds-" + pad(d, 3) }

// ProblemID returns the id of the p-th generated problem.
func ProblemID(p int) string { return "p" + pad(p, 7) }

// Records yields the records of g without holding them (memory does not
// grow with g.Len()), as Import takes them; it yields no error.
func (g Gen) Records() iter.Seq2[groundtruth.Record, error] {
	return func(yield func(groundtruth.Record, error) bool) {
		for r := range g.each() {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// each yields the records of g, as Records does.
func (g Gen) each() iter.Seq[groundtruth.Record] {
	return func(yield func(groundtruth.Record) bool) {
		i := 0
		for m := range g.Models {
			for mode := range 2 {
				for d := range g.Datasets {
					for p := range g.Problems {
						if !yield(g.Record(m, mode, d, p, i)) {
							return
						}
						i++
					}
				}
			}
		}
	}
}

// genRules are the cost rules a generated record may carry (None needs a
// cost of 0).
var genRules = []costrule.Rule{costrule.Completion, costrule.TotalMinusPrompt, costrule.CompletionPlusReasoning, costrule.Unknown, costrule.HarnessOutput}

// Record returns the generated record of (model m, mode, dataset d,
// problem p); i only varies the values.
func (g Gen) Record(m, mode, d, p, i int) groundtruth.Record {
	gradeable := (p+g.Variant)%7 != 0
	r := groundtruth.Record{
		Key:           groundtruth.Key{Solver: Solver(m, mode), Dataset: Dataset(d), ProblemID: ProblemID(p)},
		Cost:          int64(100 + (p*37+m*11+g.Variant*5)%5000),
		CostRule:      genRules[(p+m+g.Variant)%len(genRules)],
		Gradeable:     gradeable,
		Correct:       gradeable && (p+m+g.Variant)%3 == 0,
		LuckyGuess:    gradeable && (p+m+g.Variant)%3 == 1 && p%5 == 0,
		FinishReason:  "stop",
		Source:        genSource(p, g.Variant),
		ProblemSHA256: genProblemSHA256(p, g.Variant),
		Latency:       time.Duration(1000+(i%977)+g.Variant) * time.Microsecond,
		MeasuredAt:    Epoch.Add(time.Duration(i)*1001*time.Microsecond + time.Duration(g.Variant)*time.Second),
	}
	if !gradeable {
		r.FinishReason = "length"
		r.Error = "baseline call failed: variant " + strconv.Itoa(g.Variant)
	} else {
		sum := sha256.Sum256([]byte(r.ProblemID + "/" + strconv.Itoa(g.Variant)))
		r.ResponseSHA256 = hex.EncodeToString(sum[:])
	}
	return r
}

// pad formats n in decimal with at least width digits.
func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

// genSource is the source of a generated record: one in five names a log
// (an imported record), the others none.
func genSource(p, variant int) string {
	if (p+variant)%5 != 0 {
		return ""
	}
	return fmt.Sprintf("logs/run-%d.eval#id=%d,epoch=1", variant, p)
}

// genProblemSHA256 is the problem digest of a generated record: one in
// three carries the digest of problem p's text as of variant (so another
// variant changes it), the others none (imported, or stored before
// digests were).
func genProblemSHA256(p, variant int) string {
	if (p+variant)%3 != 0 {
		return ""
	}
	sum := sha256.Sum256([]byte("problem " + ProblemID(p) + " as of variant " + strconv.Itoa(variant)))
	return hex.EncodeToString(sum[:])
}
