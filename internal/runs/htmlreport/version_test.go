package htmlreport

import (
	"html"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/platform/version"
)

// TestFooterNamesTheBuild: the footer says which build wrote the page.
func TestFooterNamesTheBuild(t *testing.T) {
	in := fixtureInput(t)
	if page := render(t, in); !strings.Contains(page, "<footer>Written by triage: a self-contained page") {
		t.Errorf("footer without a build:\n%s", page[strings.Index(page, "<footer>"):])
	}
	in.Report.Version = version.Info{Version: "v1.2.0", Revision: "0123456789abcdef", Modified: true, Go: "go1.26.8", Protocol: "triage.v1", SpecRevision: "2026-11-26"}
	page := render(t, in)
	want := "<footer>Written by triage " + html.EscapeString("v1.2.0 (triage.v1 spec 2026-11-26, revision 0123456789ab, modified, go1.26.8)") + ": a self-contained page"
	if !strings.Contains(page, want) {
		t.Errorf("footer lacks %q:\n%s", want, page[strings.Index(page, "<footer>"):])
	}
}
