package groundtruth

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// normalize returns r as both backends keep it: MeasuredAt in UTC with
// microsecond precision and Latency in whole microseconds, so a round trip
// gives equal values and re-importing a record is recognized as Unchanged.
func normalize(r Record) Record {
	r.MeasuredAt = r.MeasuredAt.UTC().Truncate(time.Microsecond)
	r.Latency = r.Latency.Truncate(time.Microsecond)
	if r.Sample == 1 {
		r.Sample = 0 // the ground truth's one spelling
	}
	return r
}

// fromUnixMicro is the inverse of the SQLite encoding of MeasuredAt.
func fromUnixMicro(us int64) time.Time { return time.UnixMicro(us).UTC() }

// eachRecord reads records in order and calls fn with each one, validated
// (ValidateRecord, prefix "") and normalized. It stops at the first iterator
// error, invalid record, cancellation of ctx or error of fn and returns it:
// an invalid record gives an error wrapping an *apperr.InvalidArgumentError,
// an iterator error is wrapped with %w. n counts the records read.
func eachRecord(ctx context.Context, records iter.Seq2[Record, error], fn func(Record) error) (n int64, err error) {
	for r, rerr := range records {
		if rerr != nil {
			return n, fmt.Errorf("store: import: reading records[%d]: %w", n, rerr)
		}
		if err := ctx.Err(); err != nil {
			return n, fmt.Errorf("store: import: %w", err)
		}
		var v apperr.Violations
		ValidateRecord(&v, "", r)
		if err := v.Err(); err != nil {
			return n, fmt.Errorf("store: import: records[%d]: %w", n, err)
		}
		n++
		if err := fn(normalize(r)); err != nil {
			return n, err
		}
	}
	if err := ctx.Err(); err != nil {
		return n, fmt.Errorf("store: import: %w", err)
	}
	return n, nil
}

// importErr makes sure an import that failed while ctx was done says so:
// the error wraps ctx.Err() as well as err, whatever the driver reported.
func importErr(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w (%w)", err, cerr)
	}
	return err
}

// Stale reports whether a record that measured the problem digesting to
// measured ("" when unknown) is stale now that the problem digests to
// digest: the one rule of StoredSamples.Stale and of every check of the
// ground truth read.
func Stale(measured, digest string) bool { return measured != "" && measured != digest }

// Kept reports whether a baseline keeps a problem's stored record instead
// of solving the problem again: a gradeable record always (unless rerun),
// a not-gradeable one only when asked to keep those (keepUngradeable).
// The Executor's baseline and a run's quote both decide by it.
func Kept(gradeable, rerun, keepUngradeable bool) bool {
	return !rerun && (gradeable || keepUngradeable)
}

// StoredSamples is what a store holds of one key's samples, by sample
// index (Record.SampleIndex, 1 for the ground truth).
type StoredSamples map[int]StoredSample

// StoredSample is what deciding on a stored sample needs of its record.
type StoredSample struct {
	// Gradeable is the record's Gradeable.
	Gradeable bool
	// ProblemSHA256 is the record's ProblemSHA256.
	ProblemSHA256 string
}

// SampleOf is what StoredSamples keeps of r.
func SampleOf(r Record) StoredSample {
	return StoredSample{Gradeable: r.Gradeable, ProblemSHA256: r.ProblemSHA256}
}

// Stale reports whether sample j is stored but measured another problem
// than the one that now digests to digest (Stale).
func (s StoredSamples) Stale(j int, digest string) bool {
	st, ok := s[j]
	return ok && Stale(st.ProblemSHA256, digest)
}

// Pending reports whether a baseline asking for sample j (1-based) of the
// key, whose problem now digests to digest, makes that call: when the
// sample is not stored, is stale (Stale: whatever rerun and
// keepUngradeable say), or its stored record is not kept (Kept). Each
// sample is judged alone: a kept ground truth does not keep the samples
// 2..k that are missing. The Executor's baseline and a run's quote both
// decide by it.
func (s StoredSamples) Pending(j int, digest string, rerun, keepUngradeable bool) bool {
	st, ok := s[j]
	return !ok || s.Stale(j, digest) || !Kept(st.Gradeable, rerun, keepUngradeable)
}
