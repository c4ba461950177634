package importers

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

type lcbRow struct {
	QuestionID      string `json:"question_id"`
	QuestionContent string `json:"question_content"`
	StarterCode     string `json:"starter_code"`
	PublicTestCases string `json:"public_test_cases"`
	Metadata        string `json:"metadata"`
}

func TestLCBSampleDefaultWindowSkipsAll(t *testing.T) {
	ps, rep, err := LCB([]Input{fileInput(t, benchdata.Path(t, "lcb/lcb_sample.jsonl"))}, LCBOptions{Since: LCBDefaultSince})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 0 || rep.Records != 16 || skipCount(rep, "contest_date before 2025-01-01") != 16 {
		t.Fatalf("got %d problems, report %+v", len(ps), rep)
	}
	var buf bytes.Buffer
	rep.Write(&buf)
	if !strings.Contains(buf.String(), "skipped 16: contest_date before 2025-01-01, e.g. lcb_sample.jsonl:1 (2727, 2023-05-13)") {
		t.Errorf("report:\n%s", buf.String())
	}
	roundTrip(t, ps)
}

func TestLCBSampleSince2023(t *testing.T) {
	data, err := os.ReadFile(benchdata.Path(t, "lcb/lcb_sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ps, rep, err := LCB([]Input{fileInput(t, benchdata.Path(t, "lcb/lcb_sample.jsonl"))}, LCBOptions{Since: date("2023-01-01")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 16 || rep.Skipped() != 0 || rep.Problems["lcb"] != 16 {
		t.Fatalf("got %d problems, report %+v", len(ps), rep)
	}
	var rows []lcbRow
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r lcbRow
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	kinds := map[grading.TestType]int{}
	for i, p := range ps {
		r := rows[i]
		s := specOf(t, p)
		c := s.Code
		if p.ID != r.QuestionID || s.Kind != grading.KindCode || c == nil {
			t.Fatalf("problem %d: %s %+v", i, p.ID, s)
		}
		kinds[c.TestType]++
		var tests []lcbTest
		json.Unmarshal([]byte(r.PublicTestCases), &tests)
		if len(c.Public) != len(tests) || len(c.Private) != 0 || c.Public[0].Input != *tests[0].Input || c.Public[0].Output != *tests[0].Output {
			t.Fatalf("%s: tests %+v, source %s", p.ID, c, r.PublicTestCases)
		}
		if !strings.HasPrefix(p.Text, strings.TrimSpace(r.QuestionContent)) {
			t.Fatalf("%s: text does not start with the statement", p.ID)
		}
		switch c.TestType {
		case grading.TestFunctional:
			var md struct {
				FuncName string `json:"func_name"`
			}
			json.Unmarshal([]byte(r.Metadata), &md)
			if c.FuncName != md.FuncName || c.FuncName == "" || c.StarterCode != r.StarterCode {
				t.Fatalf("%s: func %q starter %q", p.ID, c.FuncName, c.StarterCode)
			}
			if !strings.Contains(p.Text, "```python\n"+strings.TrimRight(r.StarterCode, " \n")+"\n```") || !strings.Contains(p.Text, "starter code") {
				t.Fatalf("%s: text lacks the starter code:\n%s", p.ID, p.Text)
			}
		case grading.TestStdin:
			if c.FuncName != "" || !strings.HasSuffix(p.Text, "standard input (stdin) and writes its answer to standard output (stdout).") {
				t.Fatalf("%s: %q …%q", p.ID, c.FuncName, p.Text[len(p.Text)-60:])
			}
		}
	}
	if kinds[grading.TestFunctional] != 8 || kinds[grading.TestStdin] != 8 {
		t.Errorf("test types %v, want 8 and 8", kinds)
	}
	// --until bounds the window from above.
	ps, rep, err = LCB([]Input{fileInput(t, benchdata.Path(t, "lcb/lcb_sample.jsonl"))}, LCBOptions{Since: date("2023-01-01"), Until: date("2023-06-01")})
	if err != nil || len(ps) != 7 || skipCount(rep, "contest_date on or after 2023-06-01") != 9 {
		t.Fatalf("until: %d problems, %+v, %v", len(ps), rep, err)
	}
	roundTrip(t, ps)
}

// The committed fixture has the compressed encoding (pickle protocols 2, 4
// and 5), a JSON array, and an empty private_test_cases.
func TestLCBCompressedFixture(t *testing.T) {
	ps, rep, err := LCB([]Input{fileInput(t, "testdata/lcb_compressed.jsonl")}, LCBOptions{Since: LCBDefaultSince})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || skipCount(rep, "contest_date before 2025-01-01") != 1 {
		t.Fatalf("got %d problems, report %+v", len(ps), rep)
	}
	fn := specOf(t, ps[0]).Code
	if ps[0].ID != "9001" || fn.TestType != grading.TestFunctional || fn.FuncName != "lastSum" || len(fn.Public) != 1 || len(fn.Private) != 40 ||
		fn.Private[39] != (grading.TestCase{Input: "[39]\n39", Output: "78"}) {
		t.Fatalf("functional problem: %+v", fn)
	}
	std := specOf(t, ps[1]).Code
	if ps[1].ID != "abc900_a" || std.TestType != grading.TestStdin || len(std.Public) != 1 || std.Public[0].Input != "3\n1 2 3\n" ||
		len(std.Private) != 2 || std.Private[1].Output != "-4\n" {
		t.Fatalf("stdin problem: %+v", std)
	}
	roundTrip(t, ps)

	all, _, err := LCB([]Input{fileInput(t, "testdata/lcb_compressed.jsonl")}, LCBOptions{PublicOnly: true})
	if err != nil || len(all) != 3 {
		t.Fatalf("no window: %d, %v", len(all), err)
	}
	for _, p := range all {
		if c := specOf(t, p).Code; len(c.Private) != 0 || len(c.Public) == 0 {
			t.Fatalf("%s: public only gave %+v", p.ID, c)
		}
	}
}

func TestUnpickleCommittedFixtures(t *testing.T) {
	data, err := os.ReadFile("testdata/pickles.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Protocol  int    `json:"protocol"`
		Text      string `json:"text"`
		PickleB64 string `json:"pickle_b64"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	protocols := map[int]bool{}
	for _, c := range cases {
		raw, _ := base64.StdEncoding.DecodeString(c.PickleB64)
		got, err := unpickleString(raw)
		if err != nil || got != c.Text {
			t.Errorf("protocol %d, %d bytes: %q, %v", c.Protocol, len(c.Text), truncate(got, 30), err)
		}
		protocols[c.Protocol] = true
	}
	if len(protocols) != 4 {
		t.Errorf("fixture covers protocols %v, want 2 to 5", protocols)
	}
}

func TestUnpickleRejects(t *testing.T) {
	for name, hex := range map[string]string{
		"protocol 0 str":  "56616263\n7030\n2e", // V abc \n p0 \n .
		"int":             "80044b052e",
		"list":            "80045d942e",
		"bytes":           "8004430178942e",
		"two strings":     "80048c0161948c0162942e",
		"trailing":        "80048c0161942e00",
		"no stop":         "80048c016194",
		"truncated":       "80048c0561",
		"protocol 6":      "80068c01612e",
		"memo before":     "8004948c01612e",
		"invalid UTF-8":   "80048c01ff2e",
		"nothing":         "",
		"stop, no value":  "80042e",
		"global (unsafe)": "800463706f7369780a73797374656d0a2e",
		"reduce (unsafe)": "80048c016152942e",
		"proto not first": "8c0161800494",
	} {
		raw := mustHex(t, hex)
		if s, err := unpickleString(raw); err == nil {
			t.Errorf("%s: accepted, got %q", name, s)
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	s = strings.NewReplacer("\n", "0a").Replace(s)
	b := make([]byte, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		var v byte
		for _, c := range s[i : i+2] {
			v <<= 4
			switch {
			case c >= '0' && c <= '9':
				v |= byte(c - '0')
			case c >= 'a' && c <= 'f':
				v |= byte(c - 'a' + 10)
			default:
				t.Fatalf("bad hex %q", s)
			}
		}
		b = append(b, v)
	}
	return b
}

// TestUnpicklePython checks the reader against pickles made by the real
// Python at protocols 2 to 5, including strings long enough for
// BINUNICODE and for a frame of their own, and non-ASCII text. It skips
// when python3 is missing; the committed fixtures still run.
func TestUnpicklePython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found; the committed fixtures cover the reader")
	}
	script := `
import base64, json, pickle, sys, zlib
tests = [{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}]
payloads = [json.dumps(tests), json.dumps(tests * 2000), json.dumps([{"input": "caf\u00e9 \U0001F600", "output": "\u00fc", "testtype": "stdin"}], ensure_ascii=False), "x"]
out = []
for proto in (2, 3, 4, 5):
    for p in payloads:
        out.append({"protocol": proto, "text": p, "compressed": base64.b64encode(zlib.compress(pickle.dumps(p, protocol=proto))).decode()})
for bad in ([1, 2], 5, b"raw", {"a": 1}, ("t",)):
    out.append({"protocol": 4, "bad": repr(bad), "compressed": base64.b64encode(zlib.compress(pickle.dumps(bad, protocol=4))).decode()})
json.dump(out, sys.stdout)
`
	outb, err := exec.Command(py, "-c", script).Output()
	if err != nil {
		t.Skipf("python3 failed: %v", err)
	}
	var cases []struct {
		Protocol   int    `json:"protocol"`
		Text       string `json:"text"`
		Bad        string `json:"bad"`
		Compressed string `json:"compressed"`
	}
	if err := json.Unmarshal(outb, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		got, err := decompressTests(c.Compressed)
		if c.Bad != "" {
			if err == nil {
				t.Errorf("pickle of %s accepted as %q", c.Bad, got)
			}
			continue
		}
		if err != nil || got != c.Text {
			t.Errorf("protocol %d, %d bytes: %v", c.Protocol, len(c.Text), err)
		}
	}
}

func compress(t *testing.T, pickled []byte) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write(pickled)
	zw.Close()
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestLCBMalformed(t *testing.T) {
	base := func() map[string]any {
		return map[string]any{
			"question_id": "1", "question_content": "Add.", "platform": "atcoder", "contest_date": "2025-02-01T00:00:00",
			"starter_code": "", "metadata": "{}",
			"public_test_cases": `[{"input": "1\n", "output": "1\n", "testtype": "stdin"}]`,
		}
	}
	with := func(k string, v any) map[string]any {
		m := base()
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	data := jsonl(t,
		with("public_test_cases", "not base64 !"),                                               // 1
		with("private_test_cases", compress(t, mustHex(t, "80045d942e"))),                       // 2: a pickled list
		with("public_test_cases", `[{"input": "1", "output": "1", "testtype": "functional"}]`),  // 3: no func_name
		with("contest_date", "yesterday"),                                                       // 4
		with("public_test_cases", `[{"input": "1", "output": "1", "testtype": "file"}]`),        // 5
		with("question_content", nil),                                                           // 6
		with("private_test_cases", `[{"input": "1", "output": "1", "testtype": "functional"}]`), // 7: mixed types
		with("public_test_cases", `[{"input": "1", "testtype": "stdin"}]`),                      // 8
		with("metadata", "{not json"),                                                           // 9
		with("question_id", 42.0),                                                               // 10: a number is fine
	)
	_, _, err := LCB([]Input{textInput("lcb.jsonl", data)}, LCBOptions{Since: LCBDefaultSince})
	wantIssues(t, err,
		"lcb.jsonl:1: public_test_cases: neither JSON nor base64",
		"lcb.jsonl:2: private_test_cases: compressed encoding: pickle: unsupported opcode 0x5d",
		"lcb.jsonl:3: metadata: func_name is required for functional tests",
		`lcb.jsonl:4: contest_date: must be a date like 2025-01-31T00:00:00, got "yesterday"`,
		`lcb.jsonl:5: public_test_cases: test 0: testtype must be stdin or functional, got "file"`,
		"lcb.jsonl:6: question_content: required",
		"lcb.jsonl:7: private_test_cases: test 0: testtype functional, but an earlier test is stdin",
		"lcb.jsonl:8: public_test_cases: test 0: input and output are required",
		"lcb.jsonl:9: metadata: must be a JSON object",
	)
	if strings.Contains(err.Error(), "lcb.jsonl:10") {
		t.Errorf("a numeric question_id is rejected:\n%v", err)
	}
	// Records outside the window are skipped before their tests are read.
	old := with("public_test_cases", "not base64 !")
	old["contest_date"] = "2024-12-31T23:59:59"
	ps, rep, err := LCB([]Input{textInput("old.jsonl", jsonl(t, old, with("public_test_cases", "[]")))}, LCBOptions{Since: LCBDefaultSince})
	if err != nil || len(ps) != 0 || skipCount(rep, "contest_date before 2025-01-01") != 1 || skipCount(rep, "no test cases") != 1 {
		t.Fatalf("%+v, %v", rep, err)
	}
}

// A problem whose canonical line would pass problems.MaxLineBytes is
// skipped, not written as a line problems.Read would refuse. Its tests
// come as a BINUNICODE8 pickle.
func TestLCBTooLargeIsSkipped(t *testing.T) {
	big := strings.Repeat("7 ", problems.MaxLineBytes/2+1024)
	tests, _ := json.Marshal([]map[string]string{{"input": big, "output": "7\n", "testtype": "stdin"}})
	pickled := []byte{0x80, 0x04, 0x8d}
	pickled = binary.LittleEndian.AppendUint64(pickled, uint64(len(tests)))
	pickled = append(append(pickled, tests...), 0x94, '.')
	rec := map[string]any{
		"question_id": "big", "question_content": "Sum.", "contest_date": "2025-05-01T00:00:00", "metadata": "{}",
		"public_test_cases": `[{"input": "7\n", "output": "7\n", "testtype": "stdin"}]`, "private_test_cases": compress(t, pickled),
	}
	ps, rep, err := LCB([]Input{textInput("big.jsonl", jsonl(t, rec))}, LCBOptions{})
	if err != nil || len(ps) != 0 || skipCount(rep, "tests too large for one problem line") != 1 {
		t.Fatalf("%d problems, %+v, %v", len(ps), rep, err)
	}
	ps, _, err = LCB([]Input{textInput("big.jsonl", jsonl(t, rec))}, LCBOptions{PublicOnly: true})
	if err != nil || len(ps) != 1 {
		t.Fatalf("public only: %d problems, %v", len(ps), err)
	}
}

// TestLCBHiddenTests: the report counts the hidden test cases and the
// problems without any; RequireHiddenTests skips those, saying what keeps
// them.
func TestLCBHiddenTests(t *testing.T) {
	ps, rep, err := LCB([]Input{fileInput(t, "testdata/lcb_compressed.jsonl")}, LCBOptions{})
	if err != nil || len(ps) != 3 {
		t.Fatalf("%d problems, %v", len(ps), err)
	}
	if rep.HiddenTests["lcb"] != 42 || rep.PublicTestsOnly["lcb"] != 1 || rep.TotalPublicTestsOnly() != 1 ||
		!slices.Equal(rep.PublicTestsOnlyExamples, []string{"lcb_compressed.jsonl:3 (" + ps[2].ID + ")"}) {
		t.Fatalf("report %+v", rep)
	}
	if !specOf(t, ps[2]).PublicTestsOnly() || specOf(t, ps[0]).PublicTestsOnly() {
		t.Fatalf("the flagged problem is not the one without hidden tests")
	}
	kept, rep, err := LCB([]Input{fileInput(t, "testdata/lcb_compressed.jsonl")}, LCBOptions{RequireHiddenTests: true})
	if err != nil || len(kept) != 2 || rep.TotalPublicTestsOnly() != 0 || rep.HiddenTests["lcb"] != 42 {
		t.Fatalf("require: %d problems, %+v, %v", len(kept), rep, err)
	}
	if len(rep.Skips) != 1 || rep.Skips[0].Reason != "public tests only (no hidden tests)" || rep.Skips[0].Count != 1 ||
		rep.Skips[0].Keep != "leaving out --require-hidden-tests" {
		t.Fatalf("skips %+v", rep.Skips)
	}
	// PublicOnly drops every hidden test: all three are flagged.
	_, rep, err = LCB([]Input{fileInput(t, "testdata/lcb_compressed.jsonl")}, LCBOptions{PublicOnly: true})
	if err != nil || rep.PublicTestsOnly["lcb"] != 3 || rep.HiddenTests["lcb"] != 0 {
		t.Fatalf("public only: %+v, %v", rep, err)
	}
}

// TestLCBWindowKeep: a skip outside the date window names the bound that
// keeps all its records.
func TestLCBWindowKeep(t *testing.T) {
	_, rep, err := LCB([]Input{fileInput(t, benchdata.Path(t, "lcb/lcb_sample.jsonl"))}, LCBOptions{Since: date("2023-06-01"), Until: date("2023-09-01")})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"contest_date before 2023-06-01":      "--since 2023-05-07",
		"contest_date on or after 2023-09-01": "--until 2023-10-18",
	}
	for _, s := range rep.Skips {
		if s.Keep != want[s.Reason] {
			t.Errorf("%s: keep %q, want %q", s.Reason, s.Keep, want[s.Reason])
		}
		delete(want, s.Reason)
	}
	if len(want) > 0 {
		t.Errorf("missing skips %v in %+v", want, rep.Skips)
	}
}
