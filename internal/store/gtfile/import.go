package gtfile

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/jsonloc"
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
	seen := map[[16]byte]firstRecord{} // by keyOf's digest: a few dozen bytes a record, however long its fields
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		raw := sc.Bytes()
		if line == 1 {
			raw = jsonloc.BlankBOM(raw)
		}
		text := strings.TrimSpace(string(raw))
		if text == "" {
			continue
		}
		rec, err := ParseLine([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v (nothing was imported)", name, line, err)
		}
		k, sum := keyOf(rec), recordSum(rec)
		digest := k.digest()
		if first, ok := seen[digest]; ok && first.sum != sum {
			return nil, fmt.Errorf("%s:%d: problem_id: a different record of model %q, mode %q, dataset %q, problem %q (sample %d) is already on line %d: one file holds one measurement per key (nothing was imported)",
				name, line, k.model, modeName(k.mode), k.dataset, k.problem, k.sample, first.line)
		} else if !ok {
			seen[digest] = firstRecord{line: line, sum: sum}
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

// recordKey is what the store keys a record by: a repeat of it in one
// file would silently replace the earlier record (the last one wins).
type recordKey struct {
	model, dataset, problem string
	mode                    triagev1.SolverMode
	sample                  int32
}

// firstRecord is what Import keeps of the first record of a key: its line
// and recordSum.
type firstRecord struct {
	line int
	sum  [16]byte
}

// digest is a collision-resistant digest of k (SHA-256, truncated).
func (k recordKey) digest() [16]byte {
	h := sha256.New()
	for _, f := range []string{k.model, k.dataset, k.problem, strconv.Itoa(int(k.mode)), strconv.Itoa(int(k.sample))} {
		h.Write([]byte(f))
		h.Write([]byte{0}) // no field holds NUL (groundtruth.ValidateRecord)
	}
	var d [16]byte
	copy(d[:], h.Sum(nil))
	return d
}

// recordSum is a digest of r's whole content (deterministic wire form):
// two records of one key with equal sums are the same measurement.
func recordSum(r *triagev1.GroundTruthRecord) [16]byte {
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(r) // a parsed record always marshals
	s := sha256.Sum256(b)
	var d [16]byte
	copy(d[:], s[:])
	return d
}

func keyOf(r *triagev1.GroundTruthRecord) recordKey {
	sample := r.GetSample()
	if sample == 0 {
		sample = 1 // absent, 0 and 1 all name the ground truth
	}
	return recordKey{r.GetSolver().GetModel(), r.GetDataset(), r.GetProblemId(), r.GetSolver().GetMode(), sample}
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
