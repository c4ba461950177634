package orchestrator

import (
	"context"
	"fmt"
	"os"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/gtfile"
)

// importGroundTruth streams each ground-truth file to the Executor, one
// atomic import per file (re-importing is idempotent).
func (r *Runner) importGroundTruth(ctx context.Context) error {
	for _, f := range r.cfg.GroundTruth {
		if err := r.importFile(ctx, r.cfg.Path(f)); err != nil {
			return err
		}
	}
	return nil
}

func (r *Runner) importFile(ctx context.Context, path string) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = file.Close() }() // only read
	_, err = gtfile.Import(ctx, r.clients.Executor, path, file)
	return err
}

// ListGroundTruth pages through a solver's records on a dataset and returns
// them by problem id.
func ListGroundTruth(ctx context.Context, exec triagev1.ExecutorServiceClient, s Solver, dataset string) (map[string]*triagev1.GroundTruthRecord, error) {
	out := map[string]*triagev1.GroundTruthRecord{}
	err := listGroundTruth(ctx, exec, s, dataset, false, func(rec *triagev1.GroundTruthRecord) {
		out[rec.GetProblemId()] = rec
	})
	return out, err
}

// storedSamples is what the Executor stores of a solver's samples on a
// dataset, by problem id: the ground truth alone, or every sample with
// all.
func storedSamples(ctx context.Context, exec triagev1.ExecutorServiceClient, s Solver, dataset string, all bool) (map[string]groundtruth.StoredSamples, error) {
	out := map[string]groundtruth.StoredSamples{}
	err := listGroundTruth(ctx, exec, s, dataset, all, func(rec *triagev1.GroundTruthRecord) {
		id := rec.GetProblemId()
		if out[id] == nil {
			out[id] = groundtruth.StoredSamples{}
		}
		out[id][max(int(rec.GetSample()), 1)] = groundtruth.StoredSample{Gradeable: rec.GetGradeable(), ProblemSHA256: rec.GetProblemSha256()}
	})
	return out, err
}

// listGroundTruth pages through a solver's records on a dataset (every
// sample with all, the ground truth alone otherwise), passing each to fn.
func listGroundTruth(ctx context.Context, exec triagev1.ExecutorServiceClient, s Solver, dataset string, all bool, fn func(*triagev1.GroundTruthRecord)) error {
	req := &triagev1.ListGroundTruthRequest{Solver: solverProto(s), Dataset: dataset, PageSize: 1000, AllSamples: all}
	for {
		resp, err := exec.ListGroundTruth(ctx, req)
		if err != nil {
			return fmt.Errorf("ground truth of %s/%s on %s: %w", s.Model, s.Mode, dataset, err)
		}
		for _, rec := range resp.GetRecords() {
			fn(rec)
		}
		if resp.GetNextPageToken() == "" {
			return nil
		}
		req.PageToken = resp.GetNextPageToken()
	}
}
