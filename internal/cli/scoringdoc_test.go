package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/triage-eval/triage/internal/platform/externaltest"
)

// scoringDocExample is one curl command of docs/api/scoring.md with the
// JSON the page shows under it.
type scoringDocExample struct {
	command string // the shell command, without a trailing "| jq ."
	shown   string // the ```json block that follows it
}

// scoringDocExamples returns the curl examples of scoring.md's HTTP/JSON
// section, each with the JSON block that follows it.
func scoringDocExamples(t *testing.T) []scoringDocExample {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "api", "scoring.md"))
	if err != nil {
		t.Fatal(err)
	}
	const heading = "## HTTP/JSON (curl)\n"
	text := string(b)
	start := strings.Index(text, heading)
	if start < 0 {
		t.Fatalf("scoring.md has no section %q", heading)
	}
	section := text[start+len(heading):]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end+1]
	}
	var out []scoringDocExample
	for _, block := range strings.Split(section, "```sh\n")[1:] {
		end := strings.Index(block, "```")
		cmd := strings.TrimSpace(block[:end])
		json, ok := strings.CutPrefix(strings.TrimLeft(block[end+len("```"):], "\n"), "```json\n")
		if !ok {
			t.Fatalf("scoring.md: curl example without a ```json block after it:\n%s", cmd)
		}
		cmd = strings.TrimSpace(strings.TrimSuffix(cmd, "| jq ."))
		out = append(out, scoringDocExample{command: cmd, shown: json[:strings.Index(json, "```")]})
	}
	return out
}

// TestScoringDocExamples runs the curl examples of docs/api/scoring.md, as
// written but for the address, against a live `triage serve --http-listen`
// and checks that each answer is, as JSON, the one the page shows (one
// document, or one per line for the streaming call), but for the binary's
// own version stamp.
func TestScoringDocExamples(t *testing.T) {
	externaltest.Wanted(t, externaltest.Examples)
	curl, err := exec.LookPath("curl")
	if err != nil {
		externaltest.Missing(t, externaltest.Examples, "curl is not installed (apt-get install curl)")
	}
	examples := scoringDocExamples(t)
	if len(examples) < 2 {
		t.Fatalf("found %d curl examples in scoring.md, want scorePlan's and scorePlans'", len(examples))
	}
	srv := startServeHTTP(t)
	for _, ex := range examples {
		t.Run(strings.TrimPrefix(strings.Fields(ex.command)[4], "http://127.0.0.1:8080"), func(t *testing.T) {
			command := strings.ReplaceAll(ex.command, "http://127.0.0.1:8080", "http://"+srv.httpAddr)
			command = strings.Replace(command, "curl ", curl+" --fail-with-body ", 1)
			out, err := exec.Command("bash", "-c", command).Output()
			if err != nil {
				t.Fatalf("%s: %v\n%s", command, err, out)
			}
			got, want := jsonDocuments(t, string(out)), jsonDocuments(t, ex.shown)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the answer differs from the one scoring.md shows (-shown +got):\n%s", diff)
			}
		})
	}
}

// jsonDocuments parses s as one JSON document or, failing that, one per
// line, with every "version" object's build fields (binaryVersion,
// vcsRevision) removed: they name the binary, not the answer.
func jsonDocuments(t *testing.T, s string) []any {
	t.Helper()
	var one any
	if err := json.Unmarshal([]byte(s), &one); err == nil {
		return []any{dropBuildStamp(one)}
	}
	var out []any
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, line)
		}
		out = append(out, dropBuildStamp(v))
	}
	return out
}

// dropBuildStamp removes binaryVersion and vcsRevision from every
// "version" object under v.
func dropBuildStamp(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if m, ok := e.(map[string]any); ok && k == "version" {
				delete(m, "binaryVersion")
				delete(m, "vcsRevision")
			}
			x[k] = dropBuildStamp(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dropBuildStamp(e)
		}
	}
	return v
}
