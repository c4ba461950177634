package version

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
)

// Info identifies a build.
type Info struct {
	// Module is the main module's path.
	Module string `json:"module"`
	// Version is the main module's version: a release, a pseudo-version,
	// or "(devel)".
	Version string `json:"version"`
	// Revision is the VCS revision (a git commit hash); empty when the
	// build was not stamped.
	Revision string `json:"revision,omitempty"`
	// Modified says the working tree had uncommitted changes.
	Modified bool `json:"modified,omitempty"`
	// CommitTime is the revision's commit time (RFC 3339), when stamped.
	CommitTime string `json:"commit_time,omitempty"`
	// Go is the Go version the binary was built with.
	Go string `json:"go"`
	// Protocol and SpecRevision are the protocol and the revision of its
	// specification the build implements (SPEC §10: Protocol and
	// SpecRevision); empty in an Info recorded before builds carried them.
	Protocol     string `json:"protocol,omitempty"`
	SpecRevision string `json:"spec_revision,omitempty"`
}

// Current is the running binary's build.
func Current() Info { return current() }

// current reads the build information once.
var current = sync.OnceValue(func() Info { return FromBuildInfo(debug.ReadBuildInfo()) })

// FromBuildInfo reads an Info out of build information; ok false (no
// build information, e.g. a binary built without module support) gives an
// Info whose Version is "unknown".
func FromBuildInfo(bi *debug.BuildInfo, ok bool) Info {
	if !ok || bi == nil {
		return Info{Version: "unknown", Protocol: Protocol, SpecRevision: SpecRevision}
	}
	info := Info{Module: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion, Protocol: Protocol, SpecRevision: SpecRevision}
	if info.Version == "" {
		info.Version = "(devel)" // a test binary's main module has none
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		case "vcs.time":
			info.CommitTime = s.Value
		}
	}
	return info
}

// String is the build on one line: "v1.2.0 (triage.v1 spec 2026-11-26,
// revision 0123abcd4567, modified, committed 2026-01-01T00:00:00Z,
// go1.26.8)", or "(devel) (triage.v1 spec 2026-11-26, revision unknown:
// built without VCS stamping, go1.26.8)"; an Info recorded before builds
// carried the protocol leaves it out.
func (i Info) String() string {
	var parts []string
	if i.Protocol != "" {
		parts = append(parts, i.Protocol+" spec "+i.SpecRevision)
	}
	if i.Revision == "" {
		parts = append(parts, "revision unknown: built without VCS stamping")
	} else {
		parts = append(parts, "revision "+short(i.Revision))
		if i.Modified {
			parts = append(parts, "modified")
		}
		if i.CommitTime != "" {
			parts = append(parts, "committed "+i.CommitTime)
		}
	}
	if i.Go != "" {
		parts = append(parts, i.Go)
	}
	return fmt.Sprintf("%s (%s)", i.Version, strings.Join(parts, ", "))
}

// shortRevision is how many hex digits ShortRevision keeps.
const shortRevision = 12

// ShortRevision is the revision's first 12 characters, with "+modified"
// when the tree had changes; "" when unstamped.
func (i Info) ShortRevision() string {
	r := short(i.Revision)
	if r != "" && i.Modified {
		r += "+modified"
	}
	return r
}

// short cuts a revision to shortRevision characters.
func short(revision string) string {
	if len(revision) > shortRevision {
		return revision[:shortRevision]
	}
	return revision
}
