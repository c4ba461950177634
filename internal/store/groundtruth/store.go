package groundtruth

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/triage-eval/triage/internal/protocol/costrule"
)

// Solver modes (SPEC §1): two modes of one model are two solvers.
const (
	ModeStandard = "standard"
	ModeExtended = "extended"
)

// Solver identifies a solver configuration.
type Solver struct {
	// Model is the model identifier, e.g. "qwen3-32b".
	Model string
	// Mode is ModeStandard or ModeExtended.
	Mode string
}

// Key identifies one ground-truth record.
type Key struct {
	Solver    Solver
	Dataset   string
	ProblemID string
}

// Record is the ground truth of one (solver, dataset, problem).
type Record struct {
	Key
	// Cost is the output tokens spent, reasoning included; > 0 when
	// Gradeable, ≥ 0 otherwise.
	Cost int64
	// CostRule names the SPEC §1 rule that gave Cost (costrule.Of), None
	// when no cost was counted (not gradeable), Unknown for a cost stored
	// without its rule (records of schema versions before 3, imports that
	// do not say).
	CostRule costrule.Rule
	// Correct is y, the outcome scored (SPEC §1): the grader's verdict, except
	// for an unsolvable item, which is never correct (see LuckyGuess); false
	// when not Gradeable.
	Correct bool
	// Gradeable reports whether the baseline call succeeded and was graded;
	// only gradeable items enter pools.
	Gradeable bool
	// FinishReason is the provider's finish reason ("stop", "length", …).
	FinishReason string
	// Latency is how long the baseline call took.
	Latency time.Duration
	// ResponseSHA256 is the hex SHA-256 of the raw response, or "".
	ResponseSHA256 string
	// Error says why the item is not gradeable, or "".
	Error string
	// MeasuredAt is when the baseline call was made (UTC, microseconds).
	MeasuredAt time.Time
	// LuckyGuess records that the grader accepted the answer to an
	// unsolvable item: kept for audit, never scored (Correct stays false).
	LuckyGuess bool
	// Sample says which repeated Phase 0 sample of the key this is (SPEC
	// §9): 0 or 1 is sample 1, the ground truth, and reads back as 0;
	// j in [2, MaxSample] is the j-th sample, stored beside the ground
	// truth and read only by GetSamples and List with AllSamples.
	Sample int
	// Source names the log the record was imported from (triage
	// import-ground-truth) as FILE#SAMPLE, or "" for a record TRIAGE
	// measured itself.
	Source string
	// ProblemSHA256 is the hex SHA-256 of the problem as measured
	// (problems.Digest), or "" when unknown (an import that does not say, a
	// record stored before schema version 6).
	ProblemSHA256 string
}

// MaxSample bounds Record.Sample: a key holds at most MaxSample samples,
// so reading one key's samples stays bounded.
const MaxSample = 1000

// SampleIndex is the 1-based index of r's sample: 1 for the ground truth.
func (r Record) SampleIndex() int { return max(r.Sample, 1) }

// ImportStats counts what an import did.
type ImportStats struct {
	// Received is the number of records read.
	Received int64
	// Inserted is the number of new keys.
	Inserted int64
	// Updated is the number of existing keys whose record changed.
	Updated int64
	// Unchanged is the number of records identical to what was stored.
	Unchanged int64
}

// ListQuery selects and pages records.
type ListQuery struct {
	// Solver, when non-nil, keeps only that solver's records.
	Solver *Solver
	// Dataset, when non-empty, keeps only that dataset's records.
	Dataset string
	// PageSize is the most records to return; 0 means DefaultPageSize and
	// values above MaxPageSize are lowered to it.
	PageSize int
	// PageToken continues a previous listing; "" starts at the beginning.
	PageToken string
	// AllSamples lists every stored sample of each key, in sample order
	// (the ground truth, Sample 0, first), instead of the ground truth
	// alone. A page may end between two samples of one key.
	AllSamples bool
}

// Page is one page of a listing.
type Page struct {
	// Records are in key order: solver model, mode, dataset, problem id,
	// then (with AllSamples) sample.
	Records []Record
	// NextPageToken continues the listing; "" on the last page.
	NextPageToken string
}

// Page size bounds for List.
const (
	DefaultPageSize = 100
	MaxPageSize     = 1000
)

// ErrInvalidPageToken is returned by List for a token it did not issue or
// that belongs to a different query.
var ErrInvalidPageToken = errors.New("invalid page token")

// Store is a ground-truth store. Implementations are safe for concurrent use.
type Store interface {
	// Import stores every record of records in one transaction: either all
	// of them are stored or, if records yields an error or any record is
	// invalid, none is and that error is returned. A record whose key exists
	// replaces it (Updated) unless identical (Unchanged), so importing the
	// same records twice stores them once. A key repeated within one import
	// behaves as if the records were applied in order: the last one wins,
	// and each repeat is counted against the one before it, so Inserted +
	// Updated + Unchanged = Received. Times are kept to the microsecond (UTC),
	// so records differing by less are Unchanged. Records are consumed as
	// they come: memory does not grow with the size of the import.
	Import(ctx context.Context, records iter.Seq2[Record, error]) (ImportStats, error)
	// Get returns the records of solver in dataset for the given problem
	// ids, keyed by problem id; ids without a record are absent.
	Get(ctx context.Context, solver Solver, dataset string, problemIDs []string) (map[string]Record, error)
	// GetSamples is Get with every stored sample: for each problem id with
	// any sample, its samples in order (the ground truth first when stored).
	GetSamples(ctx context.Context, solver Solver, dataset string, problemIDs []string) (map[string][]Record, error)
	// HasSolver reports whether any record exists for solver.
	HasSolver(ctx context.Context, solver Solver) (bool, error)
	// List returns one page of records matching q.
	List(ctx context.Context, q ListQuery) (Page, error)
	// Close releases the store.
	Close() error
}
