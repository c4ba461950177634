package importers

import (
	"fmt"
	"io"
	"strings"
)

// MaxExamples is how many example locations a Report keeps per skip reason.
const MaxExamples = 3

// MaxIssues is how many issues an *Error lists; the rest are only counted.
const MaxIssues = 50

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
}

func newReport(kind string) *Report {
	return &Report{Kind: kind, Problems: map[string]int{}}
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
func (r *Report) Total() int {
	n := 0
	for _, c := range r.Problems {
		n += c
	}
	return n
}

// Write prints the report for a person, e.g.
//
//	lcb: 16 records read, 0 problems, 16 skipped
//	  skipped 16: contest_date before 2025-01-01, e.g. lcb.jsonl:1 (2727), lcb.jsonl:2 (2728), …
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
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
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
