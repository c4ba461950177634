package storetest

import (
	"context"
	"errors"
	"iter"
	"slices"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// newSolver is the solver of the records a failed import must not leave
// behind.
var newSolver = groundtruth.Solver{Model: "new-model", Mode: groundtruth.ModeExtended}

// batch yields n valid records of newSolver, with record bad (if ≥ 0)
// replaced by the result of corrupt, and calls hook (if non-nil) before
// yielding record i; hook may return an error to yield instead.
func batch(n, bad int, corrupt func(*groundtruth.Record), hook func(i int) error) iter.Seq2[groundtruth.Record, error] {
	return func(yield func(groundtruth.Record, error) bool) {
		for i := range n {
			if hook != nil {
				if err := hook(i); err != nil {
					yield(groundtruth.Record{}, err)
					return
				}
			}
			r := sample(newSolver.Model, newSolver.Mode, "ds", ProblemID(i))
			if i == bad {
				corrupt(&r)
			}
			if !yield(r, nil) {
				return
			}
		}
	}
}

// seeded opens a store holding a few records and returns it with them.
func seeded(t *testing.T, h Harness) (groundtruth.Store, []groundtruth.Record) {
	s := h.Open(t, "db")
	g := Gen{Models: 1, Datasets: 2, Problems: 150}
	mustImport(t, s, g.Records())
	return s, collect(g)
}

// wantUntouched fails t unless s holds exactly before and nothing of
// newSolver, and still accepts imports.
func wantUntouched(t *testing.T, s groundtruth.Store, before []groundtruth.Record) {
	t.Helper()
	wantRecords(t, listAll(t, s, groundtruth.ListQuery{PageSize: groundtruth.MaxPageSize}), before)
	if has, err := s.HasSolver(context.Background(), newSolver); err != nil || has {
		t.Fatalf("HasSolver(new solver) = %v, %v after a failed import; want false, nil", has, err)
	}
	// The store stays usable.
	wantStats(t, mustImport(t, s, batch(10, -1, nil, nil)), groundtruth.ImportStats{Received: 10, Inserted: 10})
}

func testRejectInvalidRecord(t *testing.T, h Harness) {
	tests := []struct {
		field   string
		corrupt func(*groundtruth.Record)
	}{
		{"cost", func(r *groundtruth.Record) { r.Cost = -1 }},
		{"solver.mode", func(r *groundtruth.Record) { r.Solver.Mode = "turbo" }},
		{"problem_id", func(r *groundtruth.Record) { r.ProblemID = "" }},
		{"correct", func(r *groundtruth.Record) { r.Gradeable = false }},
		{"response_sha256", func(r *groundtruth.Record) { r.ResponseSHA256 = "ABC" }},
		{"problem_sha256", func(r *groundtruth.Record) { r.ProblemSHA256 = "ABC" }},
		{"measured_time", func(r *groundtruth.Record) { r.MeasuredAt = time.Time{} }},
	}
	for _, tc := range tests {
		t.Run(tc.field, func(t *testing.T) {
			s, before := seeded(t, h)
			_, err := s.Import(context.Background(), batch(1000, 499, tc.corrupt, nil))
			var inv *apperr.InvalidArgumentError
			if !errors.As(err, &inv) {
				t.Fatalf("Import error = %v (%T), want an *apperr.InvalidArgumentError", err, err)
			}
			if !slices.ContainsFunc(inv.Violations, func(v apperr.FieldViolation) bool { return v.Field == tc.field }) {
				t.Fatalf("violations %+v do not name field %q", inv.Violations, tc.field)
			}
			wantUntouched(t, s, before)
		})
	}
}

// errBroken is what the broken iterators yield.
var errBroken = errors.New("source broke")

func testRejectIteratorError(t *testing.T, h Harness) {
	invalid := apperr.Invalid("records[3].cost", "bad")
	tests := []struct {
		name  string
		at    int
		err   error
		check func(error) bool
	}{
		{"first", 0, errBroken, func(err error) bool { return errors.Is(err, errBroken) }},
		{"mid-stream", 700, errBroken, func(err error) bool { return errors.Is(err, errBroken) }},
		{"invalid argument from source", 300, invalid, func(err error) bool {
			var inv *apperr.InvalidArgumentError
			return errors.As(err, &inv) && inv.Violations[0].Field == "records[3].cost"
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, before := seeded(t, h)
			_, err := s.Import(context.Background(), batch(1000, -1, nil, func(i int) error {
				if i == tc.at {
					return tc.err
				}
				return nil
			}))
			if err == nil || !tc.check(err) {
				t.Fatalf("Import error = %v, want one wrapping %v", err, tc.err)
			}
			wantUntouched(t, s, before)
		})
	}
}

func testRejectCancelled(t *testing.T, h Harness) {
	t.Run("before", func(t *testing.T) {
		s, before := seeded(t, h)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.Import(ctx, batch(100, -1, nil, nil)); !errors.Is(err, context.Canceled) {
			t.Fatalf("Import error = %v, want context.Canceled", err)
		}
		wantUntouched(t, s, before)
	})
	for _, at := range []int{1, 600} {
		t.Run("mid-stream", func(t *testing.T) {
			s, before := seeded(t, h)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			_, err := s.Import(ctx, batch(1000, -1, nil, func(i int) error {
				if i == at {
					cancel()
				}
				return nil
			}))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Import error = %v, want context.Canceled", err)
			}
			wantUntouched(t, s, before)
		})
	}
	t.Run("deadline", func(t *testing.T) {
		s, before := seeded(t, h)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := s.Import(ctx, batch(1000, -1, nil, func(i int) error {
			if i == 400 {
				<-ctx.Done()
			}
			return nil
		}))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Import error = %v, want context.DeadlineExceeded", err)
		}
		wantUntouched(t, s, before)
	})
}
