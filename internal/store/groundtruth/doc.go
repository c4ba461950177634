// Package groundtruth keeps Phase 0 ground truth: for each (solver, dataset,
// problem) the output tokens the solver spent and the SPEC §1 rule that
// counted them (package costrule), whether it was right, whether the item is
// gradeable at all, and how the measurement went.
//
// Store is the one interface; Open picks a backend from a location string:
// embedded SQLite (the default; a file path or "sqlite:PATH") or PostgreSQL
// ("postgres://…" or "postgresql://…") for shared deployments. Both apply
// their versioned, embedded schema migrations when opened and pass the same
// conformance suite (storetest).
//
// # Samples
//
// Repeated Phase 0 (SPEC §9) measures a key k times. Sample 1 is the ground
// truth, kept in the ground_truth table exactly as before samples existed
// (Record.Sample 0 or 1; it reads back as 0), so Get, HasSolver and List see
// only it. Samples 2..k (Record.Sample j ≥ 2) live in ground_truth_samples,
// keyed by (key, sample); GetSamples and List with AllSamples read every
// sample in order. In what follows a key means a key and its sample.
//
// # Import semantics
//
// Both backends behave as if the records of one Import were applied one at
// a time, in order, inside one transaction:
//
//   - A key not yet stored is Inserted; a stored key whose values differ is
//     Updated; an identical record is Unchanged. Inserted + Updated +
//     Unchanged = Received, the number of records read.
//   - A key repeated within one import ends with its last record; each
//     repetition is counted against the record before it (so a new key
//     imported as A, B counts one Inserted and one Updated).
//   - Times are kept in UTC with microsecond precision and latencies in
//     whole microseconds; values that differ only below a microsecond are
//     the same value.
//   - An invalid record (ValidateRecord), an error from the iterator or the
//     end of the context stores nothing and returns that error, wrapped.
//
// Concurrent imports are atomic and their counts exact: SQLite runs one
// write transaction at a time, PostgreSQL serializes the final merge step.
// Readers see the last committed state and are not blocked by an import
// (except with SQLite's ":memory:", which has a single connection).
//
// # Page tokens
//
// List pages in key order (model, mode, dataset, problem id; bytewise) by
// keyset. A page token is base64url (no padding) of a format version byte,
// an 8-byte fingerprint (truncated SHA-256) of the query's solver and
// dataset filters, and the last key returned, byte for byte (each string
// length-prefixed), then, for a listing of every sample (AllSamples, part
// of the fingerprint), the last sample as a uvarint; a token used with
// other filters, or
// that List did not issue, fails with ErrInvalidPageToken (which also
// matches *apperr.InvalidArgumentError for field "page_token"). The page
// size may change between pages. A token is only issued when more records
// followed at the time.
package groundtruth
