package storetest

import (
	"testing"

	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// Harness tells the suite how to reach a backend.
type Harness struct {
	// Dialect is the backend's migration dialect ("sqlite" or "postgres");
	// the suite expects groundtruth.LatestSchemaVersion(Dialect) to be applied.
	Dialect string
	// Open opens the database called name for test t, creating an empty one
	// on first use. Opening the same name again within t reaches the same
	// database, through a new store; other names and other tests never share
	// data. Open fails t on error and closes what it opened when t ends;
	// tests may also close a store earlier.
	Open func(t *testing.T, name string) groundtruth.Store
}

// Run runs the conformance suite against h, one subtest per behaviour.
func Run(t *testing.T, h Harness) {
	tests := []struct {
		name string
		fn   func(*testing.T, Harness)
	}{
		{"RoundTrip", testRoundTrip},
		{"Idempotent", testIdempotent},
		{"UpdateChangedField", testUpdateChangedField},
		{"DuplicateKeysInOneImport", testDuplicateKeys},
		{"RejectInvalidRecord", testRejectInvalidRecord},
		{"RejectIteratorError", testRejectIteratorError},
		{"RejectCancelled", testRejectCancelled},
		{"Reopen", testReopen},
		{"Migrations", testMigrations},
		{"ReadersDuringImport", testReadersDuringImport},
		{"OpenDuringImport", testOpenDuringImport},
		{"ConcurrentImports", testConcurrentImports},
		{"ListWalk", testListWalk},
		{"ListPageSize", testListPageSize},
		{"ListBadToken", testListBadToken},
		{"ListSeesLaterInserts", testListSeesLaterInserts},
		{"HasSolver", testHasSolver},
		{"GetUnknownAndMany", testGetUnknownAndMany},
		{"ReadOddStrings", testReadOddStrings},
		{"SamplesRoundTrip", testSamplesRoundTrip},
		{"SamplesRepeatedInOneImport", testSamplesRepeatedInOneImport},
		{"SamplesManyBatches", testSamplesManyBatches},
		{"SamplesRejectBadIndex", testSamplesRejectBadIndex},
		{"SamplesTokenIsPerMode", testSamplesTokenIsPerMode},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, h) })
	}
}
