package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

// fileInput opens path as an Input named by its base name.
func fileInput(t *testing.T, path string) Input {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return Input{Name: filepath.Base(path), R: f}
}

func textInput(name, content string) Input {
	return Input{Name: name, R: strings.NewReader(content)}
}

func jsonl(t *testing.T, recs ...any) string {
	t.Helper()
	var b strings.Builder
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// roundTrip writes ps with WriteJSONL and reads them back with
// problems.Read: every line must read back identical.
func roundTrip(t *testing.T, ps []problems.Problem) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, ps); err != nil {
		t.Fatalf("WriteJSONL: %v", err)
	}
	got, err := problems.Read(&buf, "out.jsonl")
	if err != nil {
		t.Fatalf("problems.Read: %v", err)
	}
	want := make([]problems.Problem, len(ps))
	for i, p := range ps {
		if p.Value == 0 {
			p.Value = 1
		}
		want[i] = p
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip changed the problems")
	}
	for _, p := range got {
		if _, err := grading.ParseSpec(p.Grading); err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
	}
}

func specOf(t *testing.T, p problems.Problem) grading.Spec {
	t.Helper()
	s, err := grading.ParseSpec(p.Grading)
	if err != nil {
		t.Fatalf("%s: %v", p.ID, err)
	}
	return s
}

func byID(ps []problems.Problem) map[string]problems.Problem {
	m := make(map[string]problems.Problem, len(ps))
	for _, p := range ps {
		m[p.ID] = p
	}
	return m
}

func skipCount(rep *Report, reason string) int {
	for _, s := range rep.Skips {
		if s.Reason == reason {
			return s.Count
		}
	}
	return 0
}

// wantIssues checks that err is an *Error whose rendering contains each
// of want.
func wantIssues(t *testing.T, err error, want ...string) {
	t.Helper()
	var ie *Error
	if err == nil {
		t.Fatalf("no error, want issues %q", want)
	}
	if !errorsAs(err, &ie) {
		t.Fatalf("error %v is not an *Error", err)
	}
	msg := err.Error()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error lacks %q:\n%s", w, msg)
		}
	}
}

func TestListKeep(t *testing.T) {
	k := newListKeep("subjects", []string{"b"})
	if k.String() != "" {
		t.Errorf("nothing skipped: %q", k.String())
	}
	for _, v := range []string{"c", "a", "c"} {
		k.add(v)
	}
	if got := k.String(); got != "--subjects a,b,c" {
		t.Errorf("got %q", got)
	}
	k.add("it's odd")
	if got := k.String(); got != `--subjects 'a,b,c,it'\''s odd'` {
		t.Errorf("quoted: %q", got)
	}
	many := newListKeep("category", nil)
	for i := range maxKeepValues + 5 {
		many.add(fmt.Sprint("v", i))
	}
	if got := many.String(); got != "--category with the values to keep (e.g. v0, v1, v2; more than 64 skipped)" {
		t.Errorf("many: %q", got)
	}
}
