package report

import (
	"bufio"
	"io"
	"strings"
	"unicode"
)

// Markdown writes every table of Tables as Markdown: a "## title" header per
// table, its notes, then a pipe table padded to aligned columns.
func (r Report) Markdown(w io.Writer) error {
	return writeMarkdown(w, "TRIAGE report", r.Tables())
}

// CellsMarkdown writes CellsTable as Markdown.
func (r Report) CellsMarkdown(w io.Writer) error {
	return writeMarkdown(w, "TRIAGE report: cells", []Table{r.CellsTable()})
}

func writeMarkdown(w io.Writer, title string, tables []Table) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("# " + mdEscape(title) + "\n")
	for _, t := range tables {
		bw.WriteString("\n")
		writeMarkdownTable(bw, t)
	}
	return bw.Flush()
}

// writeMarkdownTable writes one table; cells are padded to their column's
// width, text columns left-aligned and number columns right-aligned.
func writeMarkdownTable(w *bufio.Writer, t Table) {
	w.WriteString("## " + mdEscape(t.Title) + "\n\n")
	for _, n := range t.Notes {
		w.WriteString(mdEscape(n) + "\n\n")
	}
	rows := make([][]string, 0, len(t.Rows)+1)
	rows = append(rows, escapeAll(t.Header))
	for _, r := range t.Rows {
		rows = append(rows, escapeAll(r))
	}
	widths := make([]int, len(t.Header))
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], width(c), 3)
			}
		}
	}
	right := func(i int) bool { return i < len(t.Align) && t.Align[i] == 'r' }
	line := func(cells []string) {
		w.WriteString("|")
		for i := range widths {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			pad := strings.Repeat(" ", widths[i]-width(c))
			if right(i) {
				w.WriteString(" " + pad + c + " |")
			} else {
				w.WriteString(" " + c + pad + " |")
			}
		}
		w.WriteString("\n")
	}
	line(rows[0])
	sep := make([]string, len(widths))
	for i, n := range widths {
		if right(i) {
			sep[i] = strings.Repeat("-", n-1) + ":"
		} else {
			sep[i] = ":" + strings.Repeat("-", n-1)
		}
	}
	line(sep)
	for _, r := range rows[1:] {
		line(r)
	}
}

// mdEscape makes text safe inside a Markdown table cell: backslashes, pipes
// and asterisks are escaped and line breaks become spaces.
func mdEscape(s string) string { return mdReplacer.Replace(s) }

var mdReplacer = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "\r\n", " ", "\n", " ", "\r", " ")

func escapeAll(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = mdEscape(c)
	}
	return out
}

// width is the number of columns s takes in a monospaced font, counting
// combining marks (the tilde of R̃) as zero.
func width(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.Is(unicode.Mn, r) {
			n++
		}
	}
	return n
}
