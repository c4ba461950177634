package problems

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadValid(t *testing.T) {
	in := "\n" +
		`{"id":"p1","dataset":"aime","text":"Find x."}` + "\n" +
		"   \r\n" +
		`{"id":"p1","dataset":"gpqa","text":"Which?","value":2.5,"grading":{ "answer" : "<b>" },"unsolvable":true}` + "\r\n" +
		`{"id":"p2","dataset":"aime","text":"Find y.","value":0,"unsolvable":false}` // no final newline
	got, err := Read(strings.NewReader(in), "x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []Problem{
		{ID: "p1", Dataset: "aime", Text: "Find x.", Value: 1},
		{ID: "p1", Dataset: "gpqa", Text: "Which?", Value: 2.5, Grading: json.RawMessage(`{"answer":"\u003cb\u003e"}`), Unsolvable: true},
		{ID: "p2", Dataset: "aime", Text: "Find y.", Value: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Read =\n%+v\nwant\n%+v", got, want)
	}
}

// TestReadByteOrderMark: a BOM at the start of the file (Excel, PowerShell,
// Python's utf-8-sig) is ignored; anywhere else it is content, and an error
// on the first line keeps the file's byte offsets.
func TestReadByteOrderMark(t *testing.T) {
	got, err := Read(strings.NewReader("\ufeff"+`{"id":"p1","dataset":"d","text":"t"}`+"\n"), "f")
	if err != nil || len(got) != 1 || got[0].ID != "p1" {
		t.Errorf("a file that starts with a BOM: %v, %v; want its one problem", got, err)
	}
	if _, err := Read(strings.NewReader("\ufeff"+`{"id":`), "f"); err == nil || !strings.HasPrefix(err.Error(), "f:1: invalid JSON at byte 9:") {
		t.Errorf("invalid JSON after a BOM: %v; want the file's byte offset, 9", err)
	}
	if _, err := Read(strings.NewReader(`{"id":"p1","dataset":"d","text":"t"}`+"\n\ufeff{}"), "f"); err == nil || !strings.HasPrefix(err.Error(), "f:2: invalid JSON") {
		t.Errorf("a BOM on line 2: %v; want invalid JSON", err)
	}
}

func TestReadEmpty(t *testing.T) {
	for _, in := range []string{"", "\n\n", "  \r\n\t\n"} {
		got, err := Read(strings.NewReader(in), "e")
		if err != nil || got == nil || len(got) != 0 {
			t.Errorf("Read(%q) = %v, %v; want empty slice", in, got, err)
		}
	}
}

func TestReadErrors(t *testing.T) {
	const ok = `"id":"a","dataset":"d","text":"t"`
	for _, tc := range []struct {
		name, in, want string
	}{
		{"invalid JSON", `{"id":`, "f:1: invalid JSON"},
		{"trailing data", `{` + ok + `} {}`, "f:1: invalid JSON"},
		{"not an object", `["a"]`, "f:1: must be a JSON object, got array"},
		{"invalid UTF-8", "{\"id\":\"\xff\"}", "f:1: not valid UTF-8"},
		{"unknown key", `{` + ok + `,"answer":"4"}`, "f:1: answer: unknown key"},
		{"key case", `{"ID":"a","dataset":"d","text":"t"}`, "f:1: ID: unknown key\nf:1: id: required"},
		{"repeated key", `{` + ok + `,"id":"b"}`, "f:1: id: repeated key"},
		{"missing", `{}`, "f:1: id: required\nf:1: dataset: required\nf:1: text: required"},
		{"null", `{"id":null,"dataset":"d","text":"t"}`, "f:1: id: must be a string, got null"},
		{"id number", `{"id":3,"dataset":"d","text":"t"}`, "f:1: id: must be a string, got number"},
		{"empty id", `{"id":"","dataset":"d","text":"t"}`, "f:1: id: must not be empty"},
		{"blank text", `{"id":"a","dataset":"d","text":" \n "}`, "f:1: text: must not be empty"},
		{"long id", `{"id":"` + strings.Repeat("x", 257) + `","dataset":"d","text":"t"}`, "f:1: id: must be at most 256 bytes, got 257"},
		{"long dataset", `{"id":"a","dataset":"` + strings.Repeat("x", 129) + `","text":"t"}`, "f:1: dataset: must be at most 128 bytes, got 129"},
		{"NUL", `{"id":"a\u0000","dataset":"d","text":"t"}`, "f:1: id: must not contain NUL characters"},
		{"terminal escape in id", `{"id":"a\u001b[2J","dataset":"d","text":"t"}`, "f:1: id: must not contain control characters, got U+001B at byte 1"},
		{"value string", `{` + ok + `,"value":"1"}`, "f:1: value: must be a number, got string"},
		{"value negative", `{` + ok + `,"value":-1}`, "f:1: value: must be ≥ 0, got -1"},
		{"value large", `{` + ok + `,"value":1e13}`, "f:1: value: must be at most 1e+12, got 1e13"},
		{"value overflow", `{` + ok + `,"value":1e400}`, "f:1: value: must be a finite number at most 1e+12, got 1e400"},
		{"grading array", `{` + ok + `,"grading":[1]}`, "f:1: grading: must be an object, got array"},
		{"grading string", `{` + ok + `,"grading":"4"}`, "f:1: grading: must be an object, got string"},
		{"unsolvable", `{` + ok + `,"unsolvable":1}`, "f:1: unsolvable: must be true or false, got number"},
		{"duplicate", "{" + ok + "}\n\n{" + ok + `,"text":"u"}`, "f:3: text: repeated key"},
		{"duplicate id", "{" + ok + "}\n\n" + `{"id":"a","dataset":"d","text":"u"}`, `f:3: id: "a" of dataset "d" already on line 1`},
		{"two lines", "{}\n{" + ok + "}\n[]", "f:1: id: required\nf:1: dataset: required\nf:1: text: required\nf:3: must be a JSON object, got array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Read(strings.NewReader(tc.in), "f")
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Read = %v, %v; want *Error", got, err)
			}
			if got != nil {
				t.Errorf("Read returned problems with an error: %v", got)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error =\n%s\nwant prefix\n%s", err, tc.want)
			}
		})
	}
}

func TestReadCapsIssues(t *testing.T) {
	in := strings.Repeat("[]\n", 2*MaxIssues)
	_, err := Read(strings.NewReader(in), "f")
	var e *Error
	if !errors.As(err, &e) || len(e.Issues) != MaxIssues || !e.Truncated {
		t.Fatalf("err = %v; want %d issues, truncated", err, MaxIssues)
	}
	if !strings.HasSuffix(err.Error(), fmt.Sprintf("f: too many errors; stopped after %d", MaxIssues)) {
		t.Errorf("error ends %q", err.Error()[len(err.Error())-60:])
	}
}

func TestReadLongLine(t *testing.T) {
	long := `{"id":"a","dataset":"d","text":"` + strings.Repeat("x", MaxLineBytes) + `"}`
	in := long + "\n" + `{"id":"b","dataset":"d","text":"t","value":-2}` + "\n"
	_, err := Read(strings.NewReader(in), "f")
	want := fmt.Sprintf("f:1: line longer than %d bytes\nf:2: value: must be ≥ 0, got -2", MaxLineBytes)
	if err == nil || err.Error() != want {
		t.Errorf("err = %v; want %s", err, want)
	}
}

type failReader struct{}

func (failReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadIOError(t *testing.T) {
	_, err := Read(failReader{}, "f")
	var e *Error
	if err == nil || errors.As(err, &e) || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("err = %v; want the read error", err)
	}
}

func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"a","dataset":"d","text":"t","value":-1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	if want := path + ":1: value: must be ≥ 0, got -1"; err == nil || err.Error() != want {
		t.Errorf("err = %v; want %s", err, want)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v", err)
	}
}

// BenchmarkRead reads a problem file of 10,000 lines, as a grid's start
// does.
func BenchmarkRead(b *testing.B) {
	var file bytes.Buffer
	for i := range 10_000 {
		fmt.Fprintf(&file, `{"id":"ds-%05d","dataset":"ds","text":"[synthetic] problem %d: what is %d + %d?","value":%d}`+"\n", i, i, i, i+1, 1+i%5)
	}
	b.SetBytes(int64(file.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(file.Bytes()), "problems.jsonl"); err != nil {
			b.Fatal(err)
		}
	}
}
