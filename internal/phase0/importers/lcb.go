package importers

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

// LCBDefaultSince is the default start of the contest_date window: problems
// from before it are likely in a model's training data.
var LCBDefaultSince = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// MaxTestBytes bounds one decompressed test-case field.
const MaxTestBytes = 1 << 30

// LCBOptions configures the LiveCodeBench importer.
type LCBOptions struct {
	// Dataset is the dataset name; default "lcb".
	Dataset string
	// Since and Until bound the contest_date window: Since ≤ date < Until.
	// A zero time leaves that side open (the CLI defaults Since to
	// LCBDefaultSince).
	Since, Until time.Time
	// PublicOnly drops the private test cases.
	PublicOnly bool
	// RequireHiddenTests skips the problems without private (hidden) test
	// cases, which would be graded on their public tests alone: in
	// LiveCodeBench those are the statement's examples, so a program that
	// looks its input up among them passes.
	RequireHiddenTests bool
}

// lcbPublicOnlyReason is the skip reason of RequireHiddenTests.
const lcbPublicOnlyReason = "public tests only (no hidden tests)"

// lcbTest is one test case as LiveCodeBench stores it.
type lcbTest struct {
	Input    *string `json:"input"`
	Output   *string `json:"output"`
	TestType string  `json:"testtype"`
}

// LCB imports LiveCodeBench records in the native schema (question_id,
// question_content, platform, contest_date, starter_code,
// public_test_cases, private_test_cases, metadata). The id is the
// question_id as is (LeetCode numbers, Codeforces "1873_A", AtCoder
// "abc301_a" do not collide). Records whose contest_date is outside the
// window are skipped before their tests are decoded. Test cases are a JSON
// string, a JSON array, or the compressed encoding (base64 of zlib of a
// pickled JSON string); all of a problem's tests share one testtype
// (stdin or functional; functional needs metadata.func_name). A problem
// whose canonical line would exceed problems.MaxLineBytes is skipped, and
// so is one without private tests under RequireHiddenTests; the Report
// counts the problems kept without them. Malformed records abort the
// import.
func LCB(ins []Input, opt LCBOptions) ([]problems.Problem, *Report, error) {
	b := newBuilder("lcb")
	dataset := orDefault(opt.Dataset, "lcb")
	// The contest days outside the window that would widen it most.
	var earliest, latest time.Time
	for _, in := range ins {
		err := eachRecord(in, b.rep, &b.iss, func(r record) {
			before := r.iss.count()
			id := scalarString(r, "question_id")
			content := strings.TrimSpace(r.str("question_content"))
			date, dateOK := contestDate(r)
			starter := r.optStr("starter_code")
			funcName := lcbFuncName(r)
			if r.iss.count() > before || !dateOK {
				return
			}
			day := date.Format("2006-01-02")
			switch {
			case !opt.Since.IsZero() && date.Before(opt.Since):
				b.rep.skip(r.at, lcbBeforeReason(opt), id+", "+day)
				if earliest.IsZero() || date.Before(earliest) {
					earliest = date
				}
				return
			case !opt.Until.IsZero() && !date.Before(opt.Until):
				b.rep.skip(r.at, lcbAfterReason(opt), id+", "+day)
				if date.After(latest) {
					latest = date
				}
				return
			}
			public := lcbTests(r, "public_test_cases", true)
			var private []lcbTest
			if !opt.PublicOnly {
				private = lcbTests(r, "private_test_cases", false)
			}
			if r.iss.count() > before {
				return
			}
			spec := grading.CodeSpec{StarterCode: starter, FuncName: funcName}
			for i, list := range [][]lcbTest{public, private} {
				field := [...]string{"public_test_cases", "private_test_cases"}[i]
				for j, t := range list {
					tt := grading.TestType(t.TestType)
					if tt != grading.TestStdin && tt != grading.TestFunctional {
						r.iss.addf(r.at, field, "test %d: testtype must be stdin or functional, got %q", j, t.TestType)
						return
					}
					if spec.TestType == "" {
						spec.TestType = tt
					} else if tt != spec.TestType {
						r.iss.addf(r.at, field, "test %d: testtype %s, but an earlier test is %s: one problem has one test type", j, tt, spec.TestType)
						return
					}
					tc := grading.TestCase{Input: *t.Input, Output: *t.Output}
					if i == 0 {
						spec.Public = append(spec.Public, tc)
					} else {
						spec.Private = append(spec.Private, tc)
					}
				}
			}
			if spec.TestType == "" {
				b.rep.skip(r.at, "no test cases", id)
				return
			}
			if spec.TestType == grading.TestFunctional && funcName == "" {
				r.iss.at(r.at, "metadata", "func_name is required for functional tests")
				return
			}
			if spec.TestType == grading.TestStdin {
				spec.FuncName = ""
			}
			if opt.RequireHiddenTests && len(spec.Private) == 0 {
				b.rep.skip(r.at, lcbPublicOnlyReason, id)
				return
			}
			p := problems.Problem{ID: id, Dataset: dataset, Text: lcbText(content, spec)}
			if n := lineSize(p, grading.Spec{Kind: grading.KindCode, Code: &spec}); n > problems.MaxLineBytes {
				b.rep.skip(r.at, "tests too large for one problem line", fmt.Sprintf("%s, %d MiB", id, n>>20))
				return
			}
			b.emit(r.at, p, grading.Spec{Kind: grading.KindCode, Code: &spec})
		})
		if err != nil {
			return nil, nil, err
		}
	}
	if !earliest.IsZero() {
		b.rep.keep(lcbBeforeReason(opt), "--"+FlagSince+" "+earliest.Format(time.DateOnly))
	}
	if !latest.IsZero() {
		// Until is exclusive: the day after the latest date keeps it.
		day := time.Date(latest.Year(), latest.Month(), latest.Day(), 0, 0, 0, 0, time.UTC)
		b.rep.keep(lcbAfterReason(opt), "--"+FlagUntil+" "+day.AddDate(0, 0, 1).Format(time.DateOnly))
	}
	b.rep.keep(lcbPublicOnlyReason, "leaving out --"+FlagRequireHiddenTests)
	return b.result()
}

func lcbBeforeReason(opt LCBOptions) string {
	return "contest_date before " + opt.Since.Format(time.DateOnly)
}

func lcbAfterReason(opt LCBOptions) string {
	return "contest_date on or after " + opt.Until.Format(time.DateOnly)
}

// lcbText is what the solver sees: the statement, then how the solution
// is run.
func lcbText(content string, spec grading.CodeSpec) string {
	if spec.TestType == grading.TestStdin {
		return content + "\n\nYour program reads its input from standard input (stdin) and writes its answer to standard output (stdout)."
	}
	if strings.TrimSpace(spec.StarterCode) == "" {
		return content + fmt.Sprintf("\n\nWrite a class Solution with a method %s.", spec.FuncName)
	}
	return content + "\n\nComplete the following starter code (keep the class and method names):\n\n```python\n" +
		strings.TrimRight(spec.StarterCode, " \t\r\n") + "\n```"
}

func lineSize(p problems.Problem, spec grading.Spec) int {
	g, _ := json.Marshal(spec)
	p.Grading = g
	line, _ := json.Marshal(p)
	return len(line)
}

// scalarString returns required field k, a string or a number, as a
// trimmed string.
func scalarString(r record, k string) string {
	if r.present(k) && kindOf(r.f[k])[0] == 'n' {
		return string(r.f[k])
	}
	return strings.TrimSpace(r.str(k))
}

var dateLayouts = []string{"2006-01-02T15:04:05", time.RFC3339, "2006-01-02 15:04:05", "2006-01-02"}

func contestDate(r record) (time.Time, bool) {
	s := strings.TrimSpace(r.str("contest_date"))
	if s == "" {
		return time.Time{}, false
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	r.iss.addf(r.at, "contest_date", "must be a date like 2025-01-31T00:00:00, got %q", s)
	return time.Time{}, false
}

// lcbFuncName returns metadata.func_name; metadata is a JSON string or an
// object, and may be absent.
func lcbFuncName(r record) string {
	if !r.present("metadata") {
		return ""
	}
	raw := r.f["metadata"]
	if kindOf(raw) == "string" {
		var s string
		_ = json.Unmarshal(raw, &s)
		if strings.TrimSpace(s) == "" {
			return ""
		}
		raw = json.RawMessage(s)
	}
	var md struct {
		FuncName *string `json:"func_name"`
	}
	if err := json.Unmarshal(raw, &md); err != nil {
		r.iss.at(r.at, "metadata", "must be a JSON object (or a string holding one): "+strings.TrimPrefix(err.Error(), "json: "))
		return ""
	}
	if md.FuncName == nil {
		return ""
	}
	return strings.TrimSpace(*md.FuncName)
}

// lcbTests decodes a test-case field: a JSON array, a string holding one,
// or the compressed encoding.
func lcbTests(r record, k string, required bool) []lcbTest {
	if !r.present(k) {
		if required {
			r.iss.at(r.at, k, "required")
		}
		return nil
	}
	raw := r.f[k]
	if kindOf(raw) == "string" {
		var s string
		_ = json.Unmarshal(raw, &s)
		s = strings.TrimSpace(s)
		if s == "" {
			if required {
				r.iss.at(r.at, k, "must not be empty")
			}
			return nil
		}
		if s[0] != '[' {
			dec, err := decompressTests(s)
			if err != nil {
				r.iss.at(r.at, k, err.Error())
				return nil
			}
			s = dec
		}
		raw = json.RawMessage(s)
	}
	var tests []lcbTest
	if err := json.Unmarshal(raw, &tests); err != nil {
		r.iss.at(r.at, k, "must be a list of test cases: "+strings.TrimPrefix(err.Error(), "json: "))
		return nil
	}
	for i, t := range tests {
		if t.Input == nil || t.Output == nil {
			r.iss.addf(r.at, k, "test %d: input and output are required", i)
			return nil
		}
	}
	return tests
}

// decompressTests decodes LiveCodeBench's compressed test cases:
// json.loads(pickle.loads(zlib.decompress(base64.b64decode(s)))) returns
// the JSON text (see unpickleString for the accepted pickles).
func decompressTests(s string) (string, error) {
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("neither JSON nor base64 (compressed encoding): %v", err)
	}
	zr, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("compressed encoding: zlib: %v", err)
	}
	defer func() { _ = zr.Close() }() // only read; ReadAll reported its errors
	raw, err := io.ReadAll(io.LimitReader(zr, MaxTestBytes+1))
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("compressed encoding: zlib: %v", err)
	}
	if len(raw) > MaxTestBytes {
		return "", fmt.Errorf("compressed encoding: more than %d bytes decompressed", MaxTestBytes)
	}
	s, err = unpickleString(raw)
	if err != nil {
		return "", fmt.Errorf("compressed encoding: %v", err)
	}
	return s, nil
}
