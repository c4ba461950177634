// Package golden compares test output with golden files and rewrites them
// under `go test -update`: the one -update flag of the module's tests.
//
// A comparison is byte for byte; a difference is reported with the file's
// path and, for text, a line diff (want → got). Under -update the file
// (and its directory) is written and the comparison passes; review the diff
// with git before committing it. Imported by tests only.
package golden
