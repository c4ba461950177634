package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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

// noiseFiles are the files WriteDir adds when the report has a noise part
// (Report.Noise, SPEC §9).
var noiseFiles = []struct {
	Name  string
	Write func(Report, io.Writer) error
}{
	{"noise.csv", Report.NoiseCSV},
	{"items_noise.csv", Report.ItemsNoiseCSV},
}

// FileNames returns the names of the files WriteDir writes for every
// report, in order; WrittenFiles adds the noise files of a report with a
// noise part.
func FileNames() []string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	return names
}

// WrittenFiles returns the names of the files WriteDir writes for r, in
// order: FileNames, then noise.csv and items_noise.csv when r.Noise is set.
func (r Report) WrittenFiles() []string {
	names := FileNames()
	if r.Noise != nil {
		for _, f := range noiseFiles {
			names = append(names, f.Name)
		}
	}
	return names
}

// WriteDir writes every file of WrittenFiles into dir, creating dir (and its
// parents) if needed and replacing files of the same names. Each file is
// rendered in memory first, so a rendering error leaves no partial file.
func (r Report) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	all := files
	if r.Noise != nil {
		all = append(slices.Clone(files), noiseFiles...)
	}
	for _, f := range all {
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
