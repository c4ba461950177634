package htmlreport

import (
	"iter"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/triage-eval/triage/internal/runs/report"
)

// TestPieces pins where a cell may wrap: never inside a value with its
// interval or inside a word, after " / " between values, before the
// parenthesised remark, and between a lone value and its interval.
func TestPieces(t *testing.T) {
	k := func(s string) piece { return piece{Text: s, Keep: true} }
	p := func(s string) piece { return piece{Text: s} }
	sp := p(" ")
	cases := []struct {
		text string
		num  bool
		want []piece
	}{
		{"", true, nil},
		{"synthetic-careful", false, []piece{k("synthetic-careful")}},
		{"0.700", true, []piece{k("0.700")}},
		{"mean over datasets", false, []piece{p("mean over datasets")}},
		{"order 0.541 (59%), enforcement 0.374 (41%)", false, []piece{p("order 0.541 (59%), enforcement 0.374 (41%)")}},
		{"0.512 [0.401, 0.613]†", true, []piece{p("0.512"), sp, k("[0.401, 0.613]†")}},
		{"0.169 (n=1 of 3; 2 excluded: error)", true, []piece{p("0.169"), sp, p("(n=1 of 3; 2 excluded: error)")}},
		{"0.400 → 0.450 (n=40)", true, []piece{k("0.400 → 0.450"), sp, p("(n=40)")}},
		{"0.325 / 0.316", true, []piece{k("0.325 /"), sp, p("0.316")}},
		{"-0.361 [-0.790, 0.069]† / -0.950 [-1.217, -0.684]† (n=4)", true,
			[]piece{k("-0.361 [-0.790, 0.069]† /"), sp, k("-0.950 [-1.217, -0.684]†"), sp, p("(n=4)")}},
		{"0.333 [0.000, 1.000] / 0.000 (n=3; degenerate D2:3, no informative pool)", true,
			[]piece{k("0.333 [0.000, 1.000] /"), sp, p("0.000"), sp, p("(n=3; degenerate D2:3, no informative pool)")}},
		// Nothing inside brackets or parentheses is split.
		{"0.41 [0.30, 0.52] / 0.40 [0.2, 0.6] (n=40; noise-aware [0.27, 0.55] / [0.1, 0.7])", true,
			[]piece{k("0.41 [0.30, 0.52] /"), sp, k("0.40 [0.2, 0.6]"), sp, p("(n=40; noise-aware [0.27, 0.55] / [0.1, 0.7])")}},
		{"— / 0.000 [0.000, 0.000]† (n=2)", true, []piece{k("— /"), sp, k("0.000 [0.000, 0.000]†"), sp, p("(n=2)")}},
	}
	for _, tc := range cases {
		got := pieces(tc.text, tc.num)
		if !slices.Equal(got, tc.want) {
			t.Errorf("pieces(%q, %v):\n got %+v\nwant %+v", tc.text, tc.num, got, tc.want)
		}
	}
}

// TestPageKeepsCellText reads every cell back from the rendered page: its
// text must be the report's, character for character, whatever markup
// the wrapping added.
func TestPageKeepsCellText(t *testing.T) {
	in := fixtureInput(t)
	p, err := buildPage(in)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	add := func(v tableView) {
		for _, row := range v.Rows {
			for _, c := range row {
				want = append(want, c.Text)
				var joined strings.Builder
				for _, pc := range c.Pieces {
					joined.WriteString(pc.Text)
				}
				if c.Text != "" && joined.String() != c.Text {
					t.Errorf("pieces of %q join to %q", c.Text, joined.String())
				}
			}
		}
	}
	add(*p.Summary)
	for _, s := range p.Sections {
		for _, pr := range s.Pairs {
			for _, v := range pr.Tables {
				add(v)
			}
		}
	}
	for _, v := range p.AllTables {
		add(v)
	}
	var got []string
	for td := range elements(parsePage(t, render(t, in)), "td") {
		got = append(got, textOf(td))
	}
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || got[i] != want[i] {
			t.Fatalf("the page has %d cells, the report %d; from cell %d on they differ:\n page %q\n want %q", len(got), len(want), i, got[i:min(i+3, len(got))], want[i:min(i+3, len(want))])
		}
	}
}

// TestEveryTableScrollsInPlace: every <table> on the page is the only
// element of a div.table-wrap, the box that scrolls a table wider than
// its column so that the page does not; a table added outside one would
// widen the page at narrow windows.
func TestEveryTableScrollsInPlace(t *testing.T) {
	in := fixtureInput(t)
	in.Spend = &report.Table{Title: "Spend", Header: []string{"phase", "dollars"}, Align: "lr", Rows: [][]string{{"phase0_baseline", "1.2500"}}}
	page := render(t, in)
	if n := strings.Count(page, "<table"); n < 10 {
		t.Fatalf("the fixture's page has %d tables; want the whole report", n)
	}
	if bad := tablesOutsideWraps(parsePage(t, page)); len(bad) > 0 {
		t.Errorf("tables outside a div.table-wrap: %q", bad)
	}
	if !regexp.MustCompile(`\.table-wrap \{[^}]*overflow-x: auto`).MatchString(page) {
		t.Error("the page's style does not let .table-wrap scroll (overflow-x: auto)")
	}

	// The check sees a table outside a wrap, and a wrap shared by two.
	canary := `<!DOCTYPE html><html><body><div class="table-wrap"><table id="ok"></table></div>
<section><table id="bare"></table></section><div class="table-wrap"><table id="one"></table><table id="two"></table></div></body></html>`
	if got, want := tablesOutsideWraps(parsePage(t, canary)), []string{"bare", "one", "two"}; !slices.Equal(got, want) {
		t.Errorf("canary: tables outside wraps %q, want %q", got, want)
	}
}

// tablesOutsideWraps returns the ids of the tables that are not the only
// element child of a div.table-wrap.
func tablesOutsideWraps(doc *html.Node) []string {
	var bad []string
	for table := range elements(doc, "table") {
		parent := table.Parent
		ok := parent != nil && parent.Data == "div" && slices.Contains(strings.Fields(attr(parent, "class")), "table-wrap")
		if ok {
			for c := parent.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c != table {
					ok = false
				}
			}
		}
		if !ok {
			bad = append(bad, attr(table, "id"))
		}
	}
	return bad
}

// parsePage parses an HTML page.
func parsePage(t *testing.T, page string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("parsing the page: %v", err)
	}
	return doc
}

// elements yields the elements named tag under n, in document order.
func elements(n *html.Node, tag string) iter.Seq[*html.Node] {
	return func(yield func(*html.Node) bool) {
		for d := range n.Descendants() {
			if d.Type == html.ElementNode && d.Data == tag && !yield(d) {
				return
			}
		}
	}
}

// attr returns n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// textOf is n's text content.
func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}
