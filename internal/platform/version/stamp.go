package version

// Protocol is the API's protocol and major version (SPEC §10).
const Protocol = "triage.v1"

// SpecRevision is the revision of the protocol's specification (SPEC.md)
// this binary implements: the date of its last change to a definition or a
// convention. Change it with the specification.
const SpecRevision = "2026-11-26"

// Stamp says what computed a result (SPEC §10): the protocol, the revision
// of its specification, and the binary.
type Stamp struct {
	// Protocol is Protocol.
	Protocol string `json:"protocol"`
	// SpecRevision is SpecRevision.
	SpecRevision string `json:"spec_revision"`
	// BinaryVersion is the binary's version (Info.Version).
	BinaryVersion string `json:"binary_version"`
	// VCSRevision is the binary's VCS revision (Info.Revision, in full)
	// with "+modified" when the tree had changes; empty when unstamped.
	VCSRevision string `json:"vcs_revision,omitempty"`
}

// Stamp is the stamp of results computed by the build i.
func (i Info) Stamp() Stamp {
	r := i.Revision
	if r != "" && i.Modified {
		r += "+modified"
	}
	return Stamp{Protocol: i.Protocol, SpecRevision: i.SpecRevision, BinaryVersion: i.Version, VCSRevision: r}
}
