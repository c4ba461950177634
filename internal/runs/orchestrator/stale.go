package orchestrator

import (
	"fmt"
	"slices"
	"strings"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
)

// staleExamples is how many stale problems a preflight problem names.
const staleExamples = 3

// problemDigests memoizes problems.Digest by problem id within a dataset:
// every solver's ground truth of a problem is checked against one digest.
type problemDigests map[string]string

// of is p's digest.
func (d problemDigests) of(p problems.Problem) string {
	if h, ok := d[p.ID]; ok {
		return h
	}
	h := problems.Digest(p)
	d[p.ID] = h
	return h
}

// stale reports whether a record that measured p's version measured
// (groundtruth.Stale) is stale, digesting p only when the record names a
// version.
func (d problemDigests) stale(p problems.Problem, measured string) bool {
	return measured != "" && groundtruth.Stale(measured, d.of(p))
}

// staleTruth lists, sorted, the ids of probs whose ground truth in truth is
// stale (groundtruth.Stale): measured on another text, grading or
// unsolvable mark than the problem holds now. A problem is digested (once,
// in digests) only when a record says what it measured.
func staleTruth(probs map[string]problems.Problem, truth map[string]*triagev1.GroundTruthRecord, digests problemDigests) []string {
	var stale []string
	for id, rec := range truth {
		if p, ok := probs[id]; ok && digests.stale(p, rec.GetProblemSha256()) {
			stale = append(stale, id)
		}
	}
	slices.Sort(stale)
	return stale
}

// staleProblem is the preflight problem of a solver whose ground truth of
// ids on dataset is stale (staleTruth); where names the solver's entry.
// With files (the config lists ground-truth files, imported again at the
// start of every run), it says that a stale record may come from one.
func staleProblem(where string, s Solver, dataset string, ids []string, files bool) string {
	named := strings.Join(ids[:min(len(ids), staleExamples)], ", ")
	if len(ids) > staleExamples {
		named += ", …"
	}
	noun := "problems"
	if len(ids) == 1 {
		noun = "problem"
	}
	msg := fmt.Sprintf("%s (%s/%s): the ground truth of %d %s of %s (%s) was measured on another text, grading or unsolvable mark than the problem files hold now; run `triage baseline` to measure them again (it solves stale problems again, whatever --rerun says), or restore the problems as they were",
		where, s.Model, s.Mode, len(ids), noun, dataset, named)
	if files {
		msg += "; the config's ground_truth files are imported again at the start of every run, so a stale record that comes from one of them comes back until the file is updated (`triage ground-truth list` after the baseline) or taken out of ground_truth"
	}
	return msg
}
