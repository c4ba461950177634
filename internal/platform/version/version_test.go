package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	stamped := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/triage-eval/triage", Version: "v0.0.0-20261126053559-f5260a0e02b9"},
		Settings: []debug.BuildSetting{
			{Key: "-buildmode", Value: "exe"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "f5260a0e02b95fe2cdd660cd21484fc08cb6a7f3"},
			{Key: "vcs.time", Value: "2026-11-26T05:35:59Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	tests := []struct {
		name       string
		bi         *debug.BuildInfo
		ok         bool
		want       Info
		wantString string
		wantShort  string
	}{
		{"stamped", stamped, true,
			Info{Module: "github.com/triage-eval/triage", Version: "v0.0.0-20261126053559-f5260a0e02b9", Revision: "f5260a0e02b95fe2cdd660cd21484fc08cb6a7f3", Modified: true, CommitTime: "2026-11-26T05:35:59Z", Go: "go1.26.8", Protocol: Protocol, SpecRevision: SpecRevision},
			"v0.0.0-20261126053559-f5260a0e02b9 (triage.v1 spec " + SpecRevision + ", revision f5260a0e02b9, modified, committed 2026-11-26T05:35:59Z, go1.26.8)",
			"f5260a0e02b9+modified"},
		{"unstamped", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/triage-eval/triage", Version: "(devel)"}}, true,
			Info{Module: "github.com/triage-eval/triage", Version: "(devel)", Go: "go1.26.8", Protocol: Protocol, SpecRevision: SpecRevision},
			"(devel) (triage.v1 spec " + SpecRevision + ", revision unknown: built without VCS stamping, go1.26.8)", ""},
		{"test binary", &debug.BuildInfo{GoVersion: "go1.26.8"}, true,
			Info{Version: "(devel)", Go: "go1.26.8", Protocol: Protocol, SpecRevision: SpecRevision},
			"(devel) (triage.v1 spec " + SpecRevision + ", revision unknown: built without VCS stamping, go1.26.8)", ""},
		{"no build information", nil, false, Info{Version: "unknown", Protocol: Protocol, SpecRevision: SpecRevision},
			"unknown (triage.v1 spec " + SpecRevision + ", revision unknown: built without VCS stamping)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FromBuildInfo(tt.bi, tt.ok)
			if got != tt.want {
				t.Errorf("FromBuildInfo = %+v, want %+v", got, tt.want)
			}
			if s := got.String(); s != tt.wantString {
				t.Errorf("String = %q, want %q", s, tt.wantString)
			}
			if s := got.ShortRevision(); s != tt.wantShort {
				t.Errorf("ShortRevision = %q, want %q", s, tt.wantShort)
			}
		})
	}
}

// TestStringWithoutProtocol: an Info recorded before builds carried the
// protocol (a run store's older builds rows) says nothing of it.
func TestStringWithoutProtocol(t *testing.T) {
	old := Info{Version: "(devel)", Go: "go1.26.8"}
	if got, want := old.String(), "(devel) (revision unknown: built without VCS stamping, go1.26.8)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

// TestCurrent: the test binary has build information, read as Go's.
func TestCurrent(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information in this binary")
	}
	if got := Current(); got.Go != bi.GoVersion || got.Version == "" {
		t.Errorf("Current = %+v, want the Go version %s and a version", got, bi.GoVersion)
	}
}

func TestStamp(t *testing.T) {
	for _, tt := range []struct {
		info Info
		want Stamp
	}{
		{Info{Version: "v1.2.0", Revision: "f5260a0e02b95fe2cdd660cd21484fc08cb6a7f3", Modified: true, Protocol: Protocol, SpecRevision: SpecRevision},
			Stamp{Protocol: "triage.v1", SpecRevision: SpecRevision, BinaryVersion: "v1.2.0", VCSRevision: "f5260a0e02b95fe2cdd660cd21484fc08cb6a7f3+modified"}},
		{Info{Version: "(devel)", Protocol: Protocol, SpecRevision: SpecRevision}, Stamp{Protocol: "triage.v1", SpecRevision: SpecRevision, BinaryVersion: "(devel)"}},
		{Info{Version: "(devel)"}, Stamp{BinaryVersion: "(devel)"}}, // recorded before builds carried the protocol
	} {
		if got := tt.info.Stamp(); got != tt.want {
			t.Errorf("%+v.Stamp() = %+v, want %+v", tt.info, got, tt.want)
		}
	}
}
