package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// files names the files WriteDir writes and the writer of each, in the
// order written.
var files = []struct {
	Name  string
	Write func(Report, io.Writer) error
}{
	{"cells.csv", Report.CSV},
	{"cells.json", Report.JSON},
	{"cells.md", Report.CellsMarkdown},
	{"tables.md", Report.Markdown},
	{"tables.tex", Report.LaTeX},
	{"accuracy.csv", Report.AccuracyCSV},
	{"sensitivity_ranges.csv", Report.RangesCSV},
	{"sensitivity_ranks.csv", Report.RanksCSV},
	{"injection.csv", Report.InjectionCSV},
	{"comparisons.csv", Report.ComparisonsCSV},
	{"pools.csv", Report.PoolsCSV},
}

// FileNames returns the names of the files WriteDir writes, in order.
func FileNames() []string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	return names
}

// WriteDir writes every file of FileNames into dir, creating dir (and its
// parents) if needed and replacing files of the same names. Each file is
// rendered in memory first, so a rendering error leaves no partial file.
func (r Report) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	for _, f := range files {
		var buf bytes.Buffer
		if err := f.Write(r, &buf); err != nil {
			return fmt.Errorf("report: rendering %s: %w", f.Name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name), buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	return nil
}
