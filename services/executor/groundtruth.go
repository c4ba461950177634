package executor

import (
	"context"
	"errors"
	"io"
	"strconv"

	"google.golang.org/grpc"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// ImportGroundTruth stores the streamed records in one transaction. Each
// record is validated as it arrives; the first invalid one aborts the import
// and nothing is stored. Violations name the record by its position in the
// whole stream, e.g. "records[1041].cost".
func (s *Service) ImportGroundTruth(stream grpc.ClientStreamingServer[triagev1.ImportGroundTruthRequest, triagev1.ImportGroundTruthResponse]) error {
	if s.store == nil {
		return errNoStore
	}
	now := s.now()
	records := func(yield func(groundtruth.Record, error) bool) {
		n := 0
		for {
			req, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(groundtruth.Record{}, err)
				return
			}
			for _, r := range req.GetRecords() {
				rec := recordFromProto(r, now)
				var v apperr.Violations
				groundtruth.ValidateRecord(&v, "records["+strconv.Itoa(n)+"]", rec)
				n++
				if err := v.Err(); err != nil {
					yield(groundtruth.Record{}, err)
					return
				}
				if !yield(rec, nil) {
					return
				}
			}
		}
	}
	stats, err := s.store.Import(stream.Context(), records)
	if err != nil {
		return err
	}
	return stream.SendAndClose(&triagev1.ImportGroundTruthResponse{
		Received:  stats.Received,
		Inserted:  stats.Inserted,
		Updated:   stats.Updated,
		Unchanged: stats.Unchanged,
	})
}

// ListGroundTruth returns one page of stored records.
func (s *Service) ListGroundTruth(ctx context.Context, req *triagev1.ListGroundTruthRequest) (*triagev1.ListGroundTruthResponse, error) {
	if s.store == nil {
		return nil, errNoStore
	}
	q := groundtruth.ListQuery{Dataset: req.GetDataset(), PageSize: int(req.GetPageSize()), PageToken: req.GetPageToken(), AllSamples: req.GetAllSamples()}
	if req.GetSolver() != nil {
		solver := solverFromProto(req.GetSolver())
		q.Solver = &solver
	}
	page, err := s.store.List(ctx, q)
	if errors.Is(err, groundtruth.ErrInvalidPageToken) {
		return nil, apperr.Invalid("page_token", "not a token from a previous listing with the same filters")
	}
	if err != nil {
		return nil, err
	}
	resp := &triagev1.ListGroundTruthResponse{NextPageToken: page.NextPageToken}
	for _, r := range page.Records {
		resp.Records = append(resp.Records, recordToProto(r))
	}
	return resp, nil
}
