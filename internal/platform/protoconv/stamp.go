package protoconv

import (
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/version"
)

// VersionStamp is the API's form of s.
func VersionStamp(s version.Stamp) *triagev1.VersionStamp {
	return &triagev1.VersionStamp{Protocol: s.Protocol, SpecRevision: s.SpecRevision, BinaryVersion: s.BinaryVersion, VcsRevision: s.VCSRevision}
}
