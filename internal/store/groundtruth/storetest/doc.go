// Package storetest is the conformance suite every store.Store backend must
// pass, plus record generators shared by the suite and the benchmarks.
//
// A backend test calls Run with a Harness that opens databases by name:
//
//	storetest.Run(t, storetest.Harness{Open: func(t *testing.T, name string) store.Store { … }})
//
// Opening the same name twice within one test must reach the same database
// (that is how the suite checks that reopening keeps everything); distinct
// names and distinct tests must not share data.
package storetest
