package gtfile

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// fakeExecutor accepts any import and counts the records it was sent.
type fakeExecutor struct {
	triagev1.ExecutorServiceClient
	sent int
}

type fakeStream struct {
	grpc.ClientStreamingClient[triagev1.ImportGroundTruthRequest, triagev1.ImportGroundTruthResponse]
	e *fakeExecutor
}

func (e *fakeExecutor) ImportGroundTruth(context.Context, ...grpc.CallOption) (grpc.ClientStreamingClient[triagev1.ImportGroundTruthRequest, triagev1.ImportGroundTruthResponse], error) {
	return &fakeStream{e: e}, nil
}

func (s *fakeStream) Send(r *triagev1.ImportGroundTruthRequest) error {
	s.e.sent += len(r.GetRecords())
	return nil
}

func (s *fakeStream) CloseAndRecv() (*triagev1.ImportGroundTruthResponse, error) {
	return &triagev1.ImportGroundTruthResponse{Received: int64(s.e.sent)}, nil
}

// TestImportByteOrderMark: a BOM at the start of a file is ignored.
func TestImportByteOrderMark(t *testing.T) {
	const a = `{"model":"m","mode":"standard","dataset":"d","problem_id":"p1","cost":100,"correct":true}`
	e := &fakeExecutor{}
	if _, err := Import(context.Background(), e, "gt.jsonl", strings.NewReader("\ufeff"+a+"\n")); err != nil || e.sent != 1 {
		t.Errorf("a file that starts with a BOM: sent %d, %v; want its one record", e.sent, err)
	}
}

// TestImportRepeatedRecord: two different records of one key (model, mode,
// dataset, problem, sample) in one file are refused, naming both lines,
// never settled silently by the last one; a repeat of the same record, or
// another sample of the key, is fine.
func TestImportRepeatedRecord(t *testing.T) {
	const a = `{"model":"m","mode":"standard","dataset":"d","problem_id":"p1","cost":100,"correct":true}`
	const b = `{"model":"m","mode":"standard","dataset":"d","problem_id":"p1","cost":200,"correct":false}`
	const other = `{"model":"m","mode":"extended","dataset":"d","problem_id":"p1","cost":200,"correct":false}`
	const sample2 = `{"model":"m","mode":"standard","dataset":"d","problem_id":"p1","cost":300,"correct":false,"sample":2}`
	_, err := Import(context.Background(), &fakeExecutor{}, "gt.jsonl", strings.NewReader(a+"\n"+other+"\n"+b+"\n"))
	if err == nil || !strings.Contains(err.Error(), "gt.jsonl:3:") || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("conflicting repeat: err %v, want gt.jsonl:3 naming line 1", err)
	}
	for _, in := range []string{a + "\n" + a + "\n", a + "\n" + sample2 + "\n" + other + "\n"} {
		if _, err := Import(context.Background(), &fakeExecutor{}, "gt.jsonl", strings.NewReader(in)); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}
