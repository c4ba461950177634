package importers

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

// MaxExamples is how many example locations a Report keeps per skip reason.
const MaxExamples = 3

// MaxIssues is how many issues an *Error lists; the rest are only counted.
const MaxIssues = 50

// The triage import flags whose values decide what an importer keeps: a
// Skip's Keep names them, and internal/cli defines its flags with these
// names.
const (
	FlagSince              = "since"
	FlagUntil              = "until"
	FlagSubjects           = "subjects"
	FlagCategory           = "category"
	FlagRequireHiddenTests = "require-hidden-tests"
)

// Report says what an importer read, produced and skipped.
type Report struct {
	// Kind is the importer, e.g. "aime".
	Kind string
	// Records counts the source records read (non-blank lines, CSV rows,
	// Parquet rows) across all inputs.
	Records int
	// Problems counts the problems produced, per dataset.
	Problems map[string]int
	// Skips are the reasons records were left out, in order of first
	// occurrence.
	Skips []Skip
	// PublicTestsOnly counts, per dataset, the code problems produced that
	// have no hidden tests (grading.Spec.PublicTestsOnly): graded on tests
	// the solver may have seen. PublicTestsOnlyExamples are the first
	// MaxExamples of them, as "file:line (id)".
	PublicTestsOnly         map[string]int
	PublicTestsOnlyExamples []string
	// HiddenTests counts, per dataset, the hidden test cases of the code
	// problems produced.
	HiddenTests map[string]int
}

// Skip is one reason records were left out.
type Skip struct {
	// Reason is a fixed phrase, e.g. "has an image".
	Reason string
	// Count is how many records were skipped for it.
	Count int
	// Examples are the first MaxExamples of them, as "file:line" with
	// an optional detail in parentheses.
	Examples []string
	// Keep is what would keep them, as triage import arguments (e.g.
	// "--since 2023-05-07"), or "" when no flag does.
	Keep string
}

func newReport(kind string) *Report {
	return &Report{Kind: kind, Problems: map[string]int{}, PublicTestsOnly: map[string]int{}, HiddenTests: map[string]int{}}
}

// keep sets the Keep of the skip for reason, if any record was skipped
// for it.
func (r *Report) keep(reason, how string) {
	for i := range r.Skips {
		if r.Skips[i].Reason == reason {
			r.Skips[i].Keep = how
		}
	}
}

// count records a problem produced with grading spec at where.
func (r *Report) count(where loc, p problems.Problem, spec grading.Spec) {
	r.Problems[p.Dataset]++
	if spec.Kind != grading.KindCode || spec.Code == nil {
		return
	}
	r.HiddenTests[p.Dataset] += len(spec.Code.Private)
	if spec.PublicTestsOnly() {
		r.PublicTestsOnly[p.Dataset]++
		if len(r.PublicTestsOnlyExamples) < MaxExamples {
			r.PublicTestsOnlyExamples = append(r.PublicTestsOnlyExamples, where.String()+" ("+p.ID+")")
		}
	}
}

// skip records that the record at where was left out for reason; detail
// (optional) is shown with the example.
func (r *Report) skip(where loc, reason, detail string) {
	ex := where.String()
	if detail != "" {
		ex += " (" + detail + ")"
	}
	for i := range r.Skips {
		if r.Skips[i].Reason == reason {
			r.Skips[i].Count++
			if len(r.Skips[i].Examples) < MaxExamples {
				r.Skips[i].Examples = append(r.Skips[i].Examples, ex)
			}
			return
		}
	}
	r.Skips = append(r.Skips, Skip{Reason: reason, Count: 1, Examples: []string{ex}})
}

// Skipped is the total number of skipped records.
func (r *Report) Skipped() int {
	n := 0
	for _, s := range r.Skips {
		n += s.Count
	}
	return n
}

// Total is the total number of problems produced.
func (r *Report) Total() int { return sum(r.Problems) }

// TotalPublicTestsOnly is the number of problems produced without hidden
// tests.
func (r *Report) TotalPublicTestsOnly() int { return sum(r.PublicTestsOnly) }

func sum(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

// Write prints the report for a person, e.g.
//
//	lcb: 16 records read, 0 problems, 16 skipped
//	  skipped 16: contest_date before 2025-01-01, e.g. lcb.jsonl:1 (2727), lcb.jsonl:2 (2728), …; --since 2023-05-07 keeps them
//
// or, with problems graded on public tests only,
//
//	lcb: 16 records read, 16 problems (lcb 16), 0 skipped
//	  public tests only: 16 of 16 problems have no hidden tests, e.g. …; --require-hidden-tests refuses them
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d records read, %d problems", r.Kind, r.Records, r.Total())
	if len(r.Problems) > 0 {
		var parts []string
		for _, ds := range sortedKeys(r.Problems) {
			parts = append(parts, fmt.Sprintf("%s %d", ds, r.Problems[ds]))
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, ", %d skipped\n", r.Skipped())
	for _, s := range r.Skips {
		fmt.Fprintf(&b, "  skipped %d: %s, e.g. %s", s.Count, s.Reason, strings.Join(s.Examples, ", "))
		if s.Count > len(s.Examples) {
			b.WriteString(", …")
		}
		if s.Keep != "" {
			fmt.Fprintf(&b, "; %s keeps them", s.Keep)
		}
		b.WriteByte('\n')
	}
	if n := r.TotalPublicTestsOnly(); n > 0 {
		fmt.Fprintf(&b, "  public tests only: %d of %d problems have no hidden tests (graded on tests the solver may have seen; LiveCodeBench's are the statement's examples), e.g. %s",
			n, r.Total(), strings.Join(r.PublicTestsOnlyExamples, ", "))
		if n > len(r.PublicTestsOnlyExamples) {
			b.WriteString(", …")
		}
		fmt.Fprintf(&b, "; --%s refuses them\n", FlagRequireHiddenTests)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// KeptNothing says why an import produced no problems: what it read, every
// skip reason with its count, and what would keep them. It is "" when
// problems were produced.
func (r *Report) KeptNothing() string {
	if r.Total() > 0 {
		return ""
	}
	var b strings.Builder
	_ = r.Write(&b) // a strings.Builder takes every write
	switch {
	case r.Records == 0:
		b.WriteString("  the input holds no records\n")
	case !slices.ContainsFunc(r.Skips, func(s Skip) bool { return s.Keep != "" }):
		fmt.Fprintf(&b, "  no flag of triage import %s keeps these records\n", r.Kind)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// loc names a source record: a file and a 1-based line (or Parquet row).
type loc struct {
	file string
	line int
	row  bool // line counts Parquet rows
}

func (l loc) String() string {
	if l.row {
		return fmt.Sprintf("%s:row %d", l.file, l.line)
	}
	return fmt.Sprintf("%s:%d", l.file, l.line)
}

// Issue is one malformed record (or input) found by an importer.
type Issue struct {
	// Where is "file:line", "file:row N" (Parquet) or "file" when the
	// whole input is at fault.
	Where string
	// Field is the source field or column at fault, or "".
	Field string
	// Reason says what is wrong.
	Reason string
}

func (is Issue) String() string {
	s := is.Where + ": "
	if is.Field != "" {
		s += is.Field + ": "
	}
	return s + is.Reason
}

// Error lists the malformed records an importer found. Importers abort on
// them: nothing is produced.
type Error struct {
	// Issues are the first MaxIssues issues, in input order.
	Issues []Issue
	// More counts the issues found beyond MaxIssues.
	More int
}

// Error renders one issue per line as "file:line: field: reason".
func (e *Error) Error() string {
	lines := make([]string, 0, len(e.Issues)+1)
	for _, is := range e.Issues {
		lines = append(lines, is.String())
	}
	if e.More > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more issues", e.More))
	}
	return strings.Join(lines, "\n")
}

// issues collects the issues of one import.
type issues struct{ e Error }

func (c *issues) add(where, field, reason string) {
	if len(c.e.Issues) >= MaxIssues {
		c.e.More++
		return
	}
	c.e.Issues = append(c.e.Issues, Issue{Where: where, Field: field, Reason: reason})
}

func (c *issues) at(l loc, field, reason string) { c.add(l.String(), field, reason) }

func (c *issues) addf(l loc, field, format string, args ...any) {
	c.at(l, field, fmt.Sprintf(format, args...))
}

func (c *issues) empty() bool { return len(c.e.Issues) == 0 }

// count is the number of issues so far, listed or not.
func (c *issues) count() int { return len(c.e.Issues) + c.e.More }

// err returns the collected issues as an *Error, or nil.
func (c *issues) err() error {
	if c.empty() {
		return nil
	}
	e := c.e
	return &e
}

// maxKeepValues bounds the values a listKeep collects: a Keep that would
// need more names a few.
const maxKeepValues = 64

// listKeep builds the Keep of records skipped because their value of a
// list flag (--subjects, --category) was not selected: the flag with the
// selected values and every skipped one.
type listKeep struct {
	flag     string
	selected []string
	skipped  []string
	seen     map[string]bool
	more     int // distinct skipped values beyond maxKeepValues
}

func newListKeep(flag string, selected []string) *listKeep {
	return &listKeep{flag: flag, selected: selected, seen: map[string]bool{}}
}

// add records a skipped value.
func (k *listKeep) add(v string) {
	switch {
	case k.seen[v]:
	case len(k.seen) >= maxKeepValues:
		k.more++
	default:
		k.seen[v] = true
		k.skipped = append(k.skipped, v)
	}
}

// String is the Keep: "--subjects a,b,c", or with too many values
// "--subjects with the values to keep (e.g. a, b, c; more than 64 skipped)".
func (k *listKeep) String() string {
	if len(k.skipped) == 0 {
		return ""
	}
	if k.more > 0 {
		return fmt.Sprintf("--%s with the values to keep (e.g. %s; more than %d skipped)", k.flag, strings.Join(k.skipped[:MaxExamples], ", "), maxKeepValues)
	}
	vals := slices.Concat(k.selected, k.skipped)
	slices.Sort(vals)
	return "--" + k.flag + " " + shellQuote(strings.Join(slices.Compact(vals), ","))
}

// shellQuote returns s as one shell word: as is when it holds only
// letters, digits and _-.,/:+ characters, else in single quotes.
func shellQuote(s string) string {
	safe := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.,/:+", r))
	}) < 0
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
