package orchestrator

import (
	"context"
	"fmt"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/store/problems"
)

// ItemKey identifies one item of Phase 0: a solver's problem.
type ItemKey struct {
	Model, Mode, Dataset, ProblemID string
}

// ItemSample is one Phase 0 measurement of an item, as a noise report
// reads it (SPEC §9): the cost c and outcome y of one sample.
type ItemSample struct {
	// Cost is the output tokens spent, reasoning included.
	Cost int64
	// Correct is y (never true for an unsolvable item, SPEC §1).
	Correct bool
	// Gradeable reports whether the sample was measured and graded.
	Gradeable bool
}

// LoadConfigSamples is LoadSamples for the solvers of cfg on the datasets
// its cells use, the injection sources included (Config.BaselineDatasets
// of its problem files: the datasets Phase 0 measures for the run).
func LoadConfigSamples(ctx context.Context, cfg *Config, exec triagev1.ExecutorServiceClient) (map[ItemKey][]ItemSample, error) {
	probs, err := cfg.LoadProblems()
	if err != nil {
		return nil, err
	}
	return LoadSamples(ctx, exec, cfg.Solvers, probs, cfg.BaselineDatasets(probs))
}

// LoadSamples reads, through the Executor (ListGroundTruth with
// all_samples), every stored sample of every item of solvers on datasets:
// per item, its samples ordered by index, sample 1 (the ground truth)
// first. An item without a stored ground truth is left out (its other
// samples are not a measurement the report can anchor), so every slice is
// non-empty and starts with sample 1; with k = 1 every slice has one
// element. Items are those stored, whether or not a problem file of the
// caller still lists them. A stale sample (groundtruth.Stale against its
// problem in probs, by dataset and id) is left out as not measured: a
// stale ground truth leaves its item out.
func LoadSamples(ctx context.Context, exec triagev1.ExecutorServiceClient, solvers []Solver, probs map[string]map[string]problems.Problem, datasets []string) (map[ItemKey][]ItemSample, error) {
	out := map[ItemKey][]ItemSample{}
	digests := map[string]problemDigests{}
	for _, d := range datasets {
		digests[d] = problemDigests{}
	}
	for _, s := range solvers {
		for _, d := range datasets {
			if err := loadSamplesOf(ctx, exec, s, d, probs[d], digests[d], out); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// loadSamplesOf adds the items of solver s on dataset d to out. Records
// arrive in problem then sample order, the ground truth as sample 0.
func loadSamplesOf(ctx context.Context, exec triagev1.ExecutorServiceClient, s Solver, d string, probs map[string]problems.Problem, digests problemDigests, out map[ItemKey][]ItemSample) error {
	req := &triagev1.ListGroundTruthRequest{Solver: solverProto(s), Dataset: d, PageSize: 1000, AllSamples: true}
	for {
		resp, err := exec.ListGroundTruth(ctx, req)
		if err != nil {
			return fmt.Errorf("samples of %s/%s on %s: %w", s.Model, s.Mode, d, err)
		}
		for _, r := range resp.GetRecords() {
			if p, ok := probs[r.GetProblemId()]; ok && digests.stale(p, r.GetProblemSha256()) {
				continue
			}
			key := ItemKey{Model: s.Model, Mode: s.Mode, Dataset: d, ProblemID: r.GetProblemId()}
			if r.GetSample() < 2 {
				out[key] = []ItemSample{sampleOf(r)}
			} else if samples, ok := out[key]; ok {
				out[key] = append(samples, sampleOf(r))
			}
		}
		if resp.GetNextPageToken() == "" {
			return nil
		}
		req.PageToken = resp.GetNextPageToken()
	}
}

// sampleOf is the measurement of one record.
func sampleOf(r *triagev1.GroundTruthRecord) ItemSample {
	return ItemSample{Cost: r.GetCost(), Correct: r.GetCorrect(), Gradeable: r.GetGradeable()}
}
