package cli

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// countingExec answers ListGroundTruth with one record naming the page
// token, failing when asked for page "bad", and counts the calls.
type countingExec struct {
	triagev1.ExecutorServiceClient
	calls int
}

func (c *countingExec) ListGroundTruth(_ context.Context, req *triagev1.ListGroundTruthRequest, _ ...grpc.CallOption) (*triagev1.ListGroundTruthResponse, error) {
	c.calls++
	if req.GetPageToken() == "bad" {
		return nil, errors.New("unavailable")
	}
	return &triagev1.ListGroundTruthResponse{Records: []*triagev1.GroundTruthRecord{{ProblemId: req.GetPageToken()}}}, nil
}

func TestListOnce(t *testing.T) {
	inner := &countingExec{}
	l := newListOnce(inner)
	ctx := context.Background()
	steps := []struct {
		req       *triagev1.ListGroundTruthRequest
		wantCalls int
		wantErr   bool
	}{
		{&triagev1.ListGroundTruthRequest{Dataset: "d", PageSize: 1000}, 1, false},
		{&triagev1.ListGroundTruthRequest{Dataset: "d", PageSize: 1000}, 1, false},
		{&triagev1.ListGroundTruthRequest{Dataset: "d", PageSize: 1000, AllSamples: true}, 2, false},
		{&triagev1.ListGroundTruthRequest{Dataset: "d", PageSize: 1000, PageToken: "p2"}, 3, false},
		{&triagev1.ListGroundTruthRequest{Dataset: "d", PageSize: 1000, PageToken: "p2"}, 3, false},
		{&triagev1.ListGroundTruthRequest{Dataset: "d", PageToken: "bad"}, 4, true},
		{&triagev1.ListGroundTruthRequest{Dataset: "d", PageToken: "bad"}, 5, true},
	}
	for i, s := range steps {
		resp, err := l.ListGroundTruth(ctx, s.req)
		if (err != nil) != s.wantErr || inner.calls != s.wantCalls {
			t.Fatalf("step %d: err %v, %d calls; want error %v, %d calls", i, err, inner.calls, s.wantErr, s.wantCalls)
		}
		if err == nil && resp.GetRecords()[0].GetProblemId() != s.req.GetPageToken() {
			t.Errorf("step %d: answered page %q, want %q", i, resp.GetRecords()[0].GetProblemId(), s.req.GetPageToken())
		}
	}
}
