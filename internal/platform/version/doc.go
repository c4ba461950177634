// Package version says which build of triage is running, from the build
// information the Go toolchain embeds in every binary
// (runtime/debug.ReadBuildInfo): the main module's version ("v1.2.0" for a
// tagged `go install`, a pseudo-version "v0.0.0-20260101…-abcdef" or
// "(devel)" for a build from a checkout), the VCS revision, whether the
// tree had uncommitted changes and the revision's commit time, and the Go
// version. The toolchain records no build time; the commit time is the
// closest it gives. A binary built without VCS stamping (-buildvcs=false,
// or from a git worktree, which the go command does not stamp) has no
// revision, and says so.
//
// An Info also names the protocol and the revision of its specification
// the build implements (SPEC §10). Commands log it when they start and
// record it with every run (the run store's builds table) and every report
// (cells.json, the HTML footer and the printed summary); its Stamp, the
// version stamp of SPEC §10, is carried by every response of every service
// and every record a run stores. It imports nothing of triage, so any package may use it.
package version
