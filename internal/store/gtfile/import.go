package gtfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
)

// Import limits.
const (
	// batchRecords is how many records go in one stream message.
	batchRecords = 1000
	// MaxLineBytes is the longest line Import accepts.
	MaxLineBytes = 1 << 20
)

// Import streams the JSONL records read from r to the Executor in one
// atomic import. name names the input in errors, which report problems as
// name:line: key: reason, whether found here (a line that does not parse)
// or by the Executor (a record it rejects); either way nothing is stored.
func Import(ctx context.Context, client triagev1.ExecutorServiceClient, name string, r io.Reader) (*triagev1.ImportGroundTruthResponse, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // a local error aborts the stream, and the import with it
	stream, err := client.ImportGroundTruth(ctx)
	if err != nil {
		return nil, err
	}
	var (
		lineOf []int32 // lineOf[i] is the line of the i-th record sent
		batch  []*triagev1.GroundTruthRecord
	)
	send := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := stream.Send(&triagev1.ImportGroundTruthRequest{Records: batch})
		batch = batch[:0:0]
		if errors.Is(err, io.EOF) {
			return nil // the server ended the stream; CloseAndRecv says why
		}
		return err
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		rec, err := ParseLine([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v (nothing was imported)", name, line, err)
		}
		lineOf = append(lineOf, int32(line))
		if batch = append(batch, rec); len(batch) == batchRecords {
			if err := send(); err != nil {
				return nil, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v (nothing was imported)", name, line+1, err)
	}
	if err := send(); err != nil {
		return nil, err
	}
	resp, err := stream.CloseAndRecv()
	if err != nil {
		return nil, importError(name, lineOf, err)
	}
	return resp, nil
}

// importError names the line of each record the Executor rejected.
func importError(name string, lineOf []int32, err error) error {
	if status.Code(err) != codes.InvalidArgument {
		return err
	}
	var lines []string
	for _, fv := range grpcerr.FieldViolations(err) {
		m := RecordField.FindStringSubmatch(fv.GetField())
		if m == nil {
			lines = append(lines, fmt.Sprintf("%s: %s: %s", name, fv.GetField(), fv.GetDescription()))
			continue
		}
		i, _ := strconv.Atoi(m[1])
		key := m[2]
		if k, ok := LineKeys[key]; ok {
			key = k
		}
		where := name
		if i < len(lineOf) {
			where = fmt.Sprintf("%s:%d", name, lineOf[i])
		}
		lines = append(lines, fmt.Sprintf("%s: %s: %s", where, key, fv.GetDescription()))
	}
	if len(lines) == 0 {
		return err
	}
	return errors.New(strings.Join(lines, "\n") + "\n(nothing was imported)")
}
