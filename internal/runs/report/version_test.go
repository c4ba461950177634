package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/platform/version"
)

// TestJSONRecordsTheBuild: cells.json holds the build that wrote it and
// the builds that touched the run, and leaves both out when unknown.
func TestJSONRecordsTheBuild(t *testing.T) {
	rep := Build(nil, nil)
	var buf bytes.Buffer
	if err := rep.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `"version"`) || strings.Contains(buf.String(), `"builds"`) {
		t.Errorf("a report without a build names one:\n%s", buf.String())
	}
	rep.Version = version.Info{Module: "github.com/triage-eval/triage", Version: "v1.2.0", Revision: "0123456789abcdef", Modified: true, CommitTime: "2026-01-01T00:00:00Z", Go: "go1.26.8", Protocol: "triage.v1", SpecRevision: "2026-11-26"}
	rep.Builds = []string{"run by v1.1.0 (revision fedcba987654, go1.26.8), 2026-01-01T00:00:00Z to 2026-01-02T00:00:00Z"}
	buf.Reset()
	if err := rep.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version version.Info `json:"version"`
		Builds  []string     `json:"builds"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != rep.Version || len(doc.Builds) != 1 || doc.Builds[0] != rep.Builds[0] {
		t.Errorf("cells.json holds %+v, %v; want %+v, %v", doc.Version, doc.Builds, rep.Version, rep.Builds)
	}
	if !strings.Contains(buf.String(), `"revision": "0123456789abcdef"`) || !strings.Contains(buf.String(), `"commit_time": "2026-01-01T00:00:00Z"`) ||
		!strings.Contains(buf.String(), `"protocol": "triage.v1"`) || !strings.Contains(buf.String(), `"spec_revision": "2026-11-26"`) {
		t.Errorf("cells.json:\n%s", buf.String()[:400])
	}
}
