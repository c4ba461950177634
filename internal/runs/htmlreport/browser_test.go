package htmlreport

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/triage-eval/triage/internal/platform/externaltest"
)

// chromium returns the path of a Chromium or Chrome binary, or skips the
// test (fails it when externaltest.Chromium requires one).
func chromium(t *testing.T) string {
	t.Helper()
	externaltest.Wanted(t, externaltest.Chromium)
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	externaltest.Missing(t, externaltest.Chromium, "no Chromium on PATH (chromium, chromium-browser, google-chrome): report.html is not checked in a browser; install Debian's chromium package to run this test")
	return ""
}

// startBrowser starts a headless Chromium with a fresh profile and returns
// a context for new tabs; the browser stops at the end of the test.
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	exe := chromium(t)
	profile, err := os.MkdirTemp("", "triage-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Chromium's helpers may still write for a moment after it exits.
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1400, 1000),
	)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc() })
	if err := chromedp.Do(browser); err != nil { // starts the browser, without a timeout
		t.Fatalf("starting %s: %v", exe, err)
	}
	return browser
}

// visit is what a page showed and did in the browser.
type visit struct {
	// problems are console messages of level warning or error, uncaught
	// exceptions and browser log entries of level warning or error.
	problems []string
	// requests are the URLs the page asked for, its own included.
	requests []string
	facts    domFacts
	// screenshot is the viewport, figure the first figure, both PNG.
	screenshot, figure []byte
}

// domFacts is what the page's DOM holds, as the browser built it.
type domFacts struct {
	Figures []struct {
		ID          string  `json:"id"`
		SVGs        int     `json:"svgs"`
		Caption     string  `json:"caption"`
		Width       float64 `json:"width"`
		ColumnWidth float64 `json:"columnWidth"`
	} `json:"figures"`
	SVGs int `json:"svgs"`
	// Sections are the page's <section>s in order.
	Sections    []sectionFacts `json:"sections"`
	Summary     []string       `json:"summary"`
	Paired      []string       `json:"paired"`
	All         []string       `json:"all"`
	OpenDetails int            `json:"openDetails"`
	Scripts     int            `json:"scripts"`
	PageWidth   float64        `json:"pageWidth"`
	ViewWidth   float64        `json:"viewWidth"`
}

// sectionFacts is one <section>: its id, heading, the ids of the figures
// it draws (an inline <svg> each) and the captions of its paired tables.
type sectionFacts struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Figures []string `json:"figures"`
	Tables  []string `json:"tables"`
}

// domFactsJS reads domFacts in the page. It runs through the DevTools
// protocol; the page itself has no script.
const domFactsJS = `(() => {
  const text = el => el ? el.textContent.replace(/\s+/g, ' ').trim() : '';
  const captions = sel => [...document.querySelectorAll(sel)].map(text);
  return {
    figures: [...document.querySelectorAll('figure')].map(f => ({
      id: f.id,
      svgs: f.querySelectorAll(':scope > svg').length,
      caption: text(f.querySelector('figcaption')),
      width: f.querySelector('svg') ? f.querySelector('svg').getBoundingClientRect().width : 0,
      columnWidth: f.parentElement.getBoundingClientRect().width,
    })),
    svgs: document.querySelectorAll('svg').length,
    sections: [...document.querySelectorAll('main > section')].map(s => ({
      id: s.id,
      title: text(s.querySelector('h2')),
      figures: [...s.querySelectorAll('figure')].filter(f => f.querySelector(':scope > svg')).map(f => f.id),
      tables: captions('#' + s.id + ' .pair table > caption'),
    })),
    summary: captions('#summary table > caption'),
    paired: captions('.pair table > caption'),
    all: captions('#all-tables details table > caption'),
    openDetails: document.querySelectorAll('details[open]').length,
    scripts: document.scripts.length,
    pageWidth: document.documentElement.scrollWidth,
    viewWidth: document.documentElement.clientWidth,
  };
})()`

// open loads the file at path in a new tab of browser and records what
// happened.
func open(t *testing.T, browser context.Context, path string) visit {
	t.Helper()
	tab, cancel := chromedp.NewContext(browser)
	defer cancel()
	var mu sync.Mutex
	var v visit
	err := chromedp.Listen(tab, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value))
				}
				v.problems = append(v.problems, fmt.Sprintf("console.%s(%s)", e.Type, strings.Join(args, ", ")))
			}
		case *runtime.EventExceptionThrown:
			v.problems = append(v.problems, "exception: "+e.ExceptionDetails.Text)
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				v.problems = append(v.problems, fmt.Sprintf("log %s: %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL))
			}
		case *network.EventRequestWillBeSent:
			v.requests = append(v.requests, e.Request.URL)
		}
	})
	if err != nil {
		t.Fatalf("listening: %v", err)
	}
	ctx, cancelTimeout := context.WithTimeout(tab, 5*time.Minute) // only catches a hang
	defer cancelTimeout()
	if err := chromedp.Do(ctx, chromedp.Navigate((&url.URL{Scheme: "file", Path: path}).String())); err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	if v.facts, err = chromedp.Run(ctx, chromedp.Evaluate[domFacts](domFactsJS)); err != nil {
		t.Fatalf("reading the DOM: %v", err)
	}
	if v.screenshot, err = chromedp.Run(ctx, chromedp.CaptureScreenshot()); err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if len(v.facts.Figures) > 0 {
		if v.figure, err = chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("figure svg"))); err != nil {
			t.Fatalf("figure screenshot: %v", err)
		}
	}
	time.Sleep(200 * time.Millisecond) // let late log entries arrive
	mu.Lock()
	defer mu.Unlock()
	return visit{problems: slices.Clone(v.problems), requests: slices.Clone(v.requests), facts: v.facts, screenshot: v.screenshot, figure: v.figure}
}

// layoutFacts is how the page fits a window, with every <details> open.
type layoutFacts struct {
	PageWidth float64 `json:"pageWidth"`
	ViewWidth float64 `json:"viewWidth"`
	// Outside are the elements that stick out of the window or whose
	// content (a long word, say) sticks out of them, but for the content
	// of a .table-wrap (it scrolls in place) and of an <svg>.
	Outside []string `json:"outside"`
	// Scrolling are the ids of the summary's and the paired tables that
	// are wider than their .table-wrap.
	Scrolling []string `json:"scrolling"`
	// WideFigures are the ids of the figures wider than their column.
	WideFigures []string `json:"wideFigures"`
}

// layoutJS reads layoutFacts in the page, through the DevTools protocol.
const layoutJS = `(() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const view = document.documentElement.clientWidth;
  const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\s+/).join('.') : '');
  const outside = [];
  for (const e of document.body.querySelectorAll('*')) {
    if (e.parentElement.closest('.table-wrap, svg')) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && (r.right > view + 0.5 || r.left < -0.5)) outside.push(name(e) + ' ' + Math.round(r.left) + '–' + Math.round(r.right));
    else if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible') outside.push(name(e) + ': its content is ' + e.scrollWidth + ' px wide in ' + e.clientWidth);
  }
  return {
    pageWidth: document.documentElement.scrollWidth,
    viewWidth: view,
    outside: outside.slice(0, 20),
    scrolling: [...document.querySelectorAll('#summary .table-wrap, .pair .table-wrap')].filter(w => w.scrollWidth > w.clientWidth + 1).map(w => w.querySelector('table').id),
    wideFigures: [...document.querySelectorAll('figure > svg')].filter(s => s.getBoundingClientRect().width > s.closest('figure').parentElement.getBoundingClientRect().width + 0.5).map(s => s.closest('figure').id),
  };
})()`

// layoutAt loads the file at path in a new tab of browser whose window
// is width px wide, and reads how the page fits it.
func layoutAt(t *testing.T, browser context.Context, path string, width int64) layoutFacts {
	t.Helper()
	tab, cancel := chromedp.NewContext(browser)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(tab, 5*time.Minute) // only catches a hang
	defer cancelTimeout()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 1000), chromedp.Navigate((&url.URL{Scheme: "file", Path: path}).String())); err != nil {
		t.Fatalf("loading %s at %d px: %v", path, width, err)
	}
	f, err := chromedp.Run(ctx, chromedp.Evaluate[layoutFacts](layoutJS))
	if err != nil {
		t.Fatalf("reading the layout at %d px: %v", width, err)
	}
	return f
}

// greyVariance decodes a PNG and returns the variance of its grey levels
// (0–255).
func greyVariance(t *testing.T, data []byte) float64 {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot is no PNG: %v", err)
	}
	var sum, sumSq float64
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			grey := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257
			sum, sumSq = sum+grey, sumSq+grey*grey
		}
	}
	n := float64(b.Dx() * b.Dy())
	return sumSq/n - (sum/n)*(sum/n)
}

// TestReportInBrowser writes report.html for the fixture, opens it in
// headless Chromium from a file:// URL and checks what the browser built:
// one <svg> per figure with its caption, scaled to its column; the summary,
// the tables beside the figures and every report table in the collapsed
// list, by title; the section "Why plans lose value" with figures 6 and 7
// drawn beside their tables; no script, no console warning or error, no request but
// the page itself; a screenshot that is not blank. In windows 1400 and 700 px
// wide, with every table open and a note holding a long unbroken identifier,
// nothing runs off the page; at 1400 px the summary and the tables beside the
// figures need no horizontal scroll. A canary page with a
// console warning and an external image proves that the checks can fail.
func TestReportInBrowser(t *testing.T) {
	browser := startBrowser(t)
	dir := t.TempDir()

	t.Run("report", func(t *testing.T) {
		in := fixtureInput(t)
		path := filepath.Join(dir, FileName)
		var buf bytes.Buffer
		if err := Write(&buf, in); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		v := open(t, browser, path)
		f := v.facts

		if len(f.Figures) != len(in.Figures) || f.SVGs != len(in.Figures) {
			t.Errorf("%d <figure>s and %d <svg>s, want %d of each", len(f.Figures), f.SVGs, len(in.Figures))
		}
		for i, fig := range f.Figures {
			if i >= len(in.Figures) {
				break
			}
			want := in.Figures[i]
			if fig.SVGs != 1 {
				t.Errorf("figure %s holds %d <svg>s, want 1", fig.ID, fig.SVGs)
			}
			if wantCaption := strings.Join(strings.Fields(want.Title+". "+want.Caption), " "); fig.Caption != wantCaption {
				t.Errorf("figure %s caption:\n got %q\nwant %q", fig.ID, fig.Caption, wantCaption)
			}
			if fig.Width < 100 || fig.Width > fig.ColumnWidth+0.5 {
				t.Errorf("figure %s is %.0f px wide in a %.0f px column: it must show, and fit", fig.ID, fig.Width, fig.ColumnWidth)
			}
		}

		if want := []string{"Summary"}; !slices.Equal(f.Summary, want) {
			t.Errorf("summary tables %q, want %q", f.Summary, want)
		}
		scope := "strategy llm, variant default"
		injection := "gpqa with unsolvable problems of gpqa-abstain, α = 0.5 — " + scope
		wantPaired := []string{
			"η_U / η_E at α = 0.5 — " + scope,
			"R̃_U / R̃_E at α = 0.5 — " + scope,
			"Base accuracy",
			"η_U / η_E by α — mean over datasets, " + scope,
			"η_U / η_E by α — dataset aime, " + scope,
			"η_U / η_E by α — dataset gpqa, " + scope,
			"Detection D / waste W by injection ratio — " + injection,
			"η_U / η_E by injection ratio — " + injection,
			"Budget-aware re-solve",
			"Why plans lose value at α = 0.5 — " + scope,
			"Self-knowledge at α = 0.5 — η_U beside the partial-information references",
		}
		if !slices.Equal(f.Paired, wantPaired) {
			t.Errorf("tables beside the figures:\n got %q\nwant %q", f.Paired, wantPaired)
		}
		// The section "Why plans lose value": figures 6 and 7, drawn, each
		// beside its table.
		why := slices.IndexFunc(f.Sections, func(s sectionFacts) bool { return s.ID == "why" })
		if why < 0 {
			t.Errorf("no section \"why\" among %d sections", len(f.Sections))
		} else {
			sec := f.Sections[why]
			wantFigures := []string{"fig-losses-llm-default-a0-5", "fig-self-knowledge-llm-default-a0-5"}
			if sec.Title != "Why plans lose value" || !slices.Equal(sec.Figures, wantFigures) || !slices.Equal(sec.Tables, wantPaired[len(wantPaired)-2:]) {
				t.Errorf("section why: title %q, figures %q, tables %q; want %q, %q, %q", sec.Title, sec.Figures, sec.Tables, "Why plans lose value", wantFigures, wantPaired[len(wantPaired)-2:])
			}
		}
		var wantAll []string
		for _, tb := range append(in.Report.Tables(), in.Report.CellsTable()) {
			wantAll = append(wantAll, strings.Join(strings.Fields(tb.Title), " "))
		}
		if !slices.Equal(f.All, wantAll) {
			t.Errorf("collapsed tables:\n got %q\nwant %q", f.All, wantAll)
		}
		for _, title := range wantPaired {
			if title != "Budget-aware re-solve" && !slices.Contains(wantAll, title) {
				t.Errorf("the report has no table %q any more: update the page's pairing (layout.go)", title)
			}
		}
		if f.OpenDetails != 0 || f.Scripts != 0 {
			t.Errorf("%d open <details>, %d scripts; want 0 and 0", f.OpenDetails, f.Scripts)
		}
		if f.PageWidth > f.ViewWidth {
			t.Errorf("the page is %.0f px wide in a %.0f px window: wide tables must scroll in place", f.PageWidth, f.ViewWidth)
		}

		if len(v.problems) > 0 {
			t.Errorf("console and log problems:\n%s", strings.Join(v.problems, "\n"))
		}
		if self := (&url.URL{Scheme: "file", Path: path}).String(); !slices.Equal(v.requests, []string{self}) {
			t.Errorf("requests %q, want only the page itself (%s)", v.requests, self)
		}
		if g := greyVariance(t, v.screenshot); g < 300 {
			t.Errorf("the screenshot looks blank: grey variance %.0f", g)
		}
		if g := greyVariance(t, v.figure); g < 300 {
			t.Errorf("the first figure looks blank: grey variance %.0f", g)
		}
	})

	t.Run("widths", func(t *testing.T) {
		in := fixtureInput(t)
		in.Notes = append(in.Notes, "Stale ground truth: problem digest sha256:"+strings.Repeat("0123456789abcdef", 8)+" (an identifier with no place to wrap at).")
		path := filepath.Join(dir, "widths.html")
		var buf bytes.Buffer
		if err := Write(&buf, in); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, width := range []int64{1400, 700} {
			f := layoutAt(t, browser, path, width)
			if f.PageWidth > f.ViewWidth || len(f.Outside) > 0 {
				t.Errorf("at %d px the page is %.0f px wide in a %.0f px window; sticking out (left–right, px): %q", width, f.PageWidth, f.ViewWidth, f.Outside)
			}
			if len(f.WideFigures) > 0 {
				t.Errorf("at %d px figures wider than their column: %q", width, f.WideFigures)
			}
			if width >= 1400 && len(f.Scrolling) > 0 {
				t.Errorf("at %d px the summary and the tables beside the figures must fit without a horizontal scroll; these scroll: %q", width, f.Scrolling)
			}
		}
	})

	t.Run("canary", func(t *testing.T) {
		path := filepath.Join(dir, "canary.html")
		canary := `<!DOCTYPE html><html><head><title>canary</title></head><body><p>canary</p>
<img src="http://127.0.0.1:9/missing.png" alt=""><script>console.warn("canary warning")</script></body></html>`
		if err := os.WriteFile(path, []byte(canary), 0o644); err != nil {
			t.Fatal(err)
		}
		v := open(t, browser, path)
		if !slices.ContainsFunc(v.problems, func(p string) bool { return strings.Contains(p, "canary warning") }) {
			t.Errorf("the canary's console warning went unseen: %q", v.problems)
		}
		if !slices.Contains(v.requests, "http://127.0.0.1:9/missing.png") {
			t.Errorf("the canary's image request went unseen: %q", v.requests)
		}
		if v.facts.Scripts != 1 {
			t.Errorf("the canary has %d scripts, want 1", v.facts.Scripts)
		}
	})
}

// TestGreyVarianceSeesABlankImage makes sure the blankness check can fail.
func TestGreyVarianceSeesABlankImage(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 30, 20))
	for i := range img.Pix {
		img.Pix[i] = 0xFF
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if g := greyVariance(t, buf.Bytes()); g > 1e-6 {
		t.Errorf("white image: variance %v, want 0", g)
	}
}
