package docs

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// root is the repository root, seen from this package.
const root = ".."

// skipDir reports whether the walk leaves out a folder: hidden ones (.git,
// .venv), installed packages, and the golden files of packages' testdata
// (outputs compared byte for byte, not documentation). The top-level
// testdata folder holds documented benchmark files and is walked.
func skipDir(rel, name string) bool {
	if rel == "." {
		return false
	}
	if strings.HasPrefix(name, ".") || name == "node_modules" {
		return true
	}
	if ignoredDir(rel, name) {
		return true
	}
	return name == "testdata" && rel != "testdata"
}

// ignoredDir reports whether .gitignore leaves out a folder: the ones a
// reader makes by following the docs (my-eval/ from examples/own-model,
// triage-demo/, bin/, a report's RUN_STORE.report/) are not the
// repository's documentation, and my-eval's README links back into docs/
// from where examples/ is.
func ignoredDir(rel, name string) bool {
	b, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		return false
	}
	for _, pattern := range strings.Split(string(b), "\n") {
		pattern = strings.TrimSpace(pattern)
		dir, ok := strings.CutSuffix(pattern, "/")
		switch {
		case !ok || dir == "":
		case strings.HasPrefix(dir, "/") && !strings.ContainsAny(dir[1:], "/*?["):
			if rel == dir[1:] {
				return true
			}
		case strings.HasPrefix(dir, "*") && !strings.ContainsAny(dir[1:], "/*?["):
			if strings.HasSuffix(name, dir[1:]) {
				return true
			}
		}
	}
	return false
}

// markdownFiles returns every Markdown file of the repository, relative to
// root, slash-separated.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipDir(filepath.ToSlash(rel), d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".md") {
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// link is one inline link or image of a Markdown file.
type link struct {
	line   int
	target string
}

var (
	// linkRE matches [text](target) and ![alt](target), with an optional
	// title after the target.
	linkRE = regexp.MustCompile(`\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// codeSpanRE matches an inline code span, whose text is not Markdown.
	codeSpanRE = regexp.MustCompile("`[^`]*`")
	// schemeRE matches a target with a URL scheme (https:, mailto:…).
	schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	// headingRE matches an ATX heading and captures its text.
	headingRE = regexp.MustCompile(`^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$`)
	// inlineLinkRE matches a link inside heading text, to keep its text.
	inlineLinkRE = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// parsed is what a Markdown file offers to links: the links it holds and
// the anchors of its headings.
type parsed struct {
	links   []link
	anchors map[string]bool
}

// parse reads a Markdown file's links (outside fenced code blocks and code
// spans) and its headings' anchors.
func parse(text string) parsed {
	p := parsed{anchors: map[string]bool{}}
	seen := map[string]int{}
	fence := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		if m := headingRE.FindStringSubmatch(line); m != nil {
			a := slug(m[1])
			if k := seen[a]; k > 0 {
				p.anchors[fmt.Sprintf("%s-%d", a, k)] = true
			} else {
				p.anchors[a] = true
			}
			seen[a]++
		}
		for _, m := range linkRE.FindAllStringSubmatch(codeSpanRE.ReplaceAllString(line, "``"), -1) {
			p.links = append(p.links, link{line: n, target: m[1]})
		}
	}
	return p
}

// slug is the anchor GitHub gives a heading: its text as rendered (code
// spans and links reduced to their text, emphasis marks dropped),
// lowercased, with every character that is not a letter, mark, number,
// underscore, space or hyphen removed, and spaces turned into hyphens.
// Repeated headings get -1, -2… (see parse).
func slug(heading string) string {
	heading = inlineLinkRE.ReplaceAllString(heading, "$1")
	heading = strings.NewReplacer("`", "", "*", "").Replace(heading)
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-', unicode.IsLetter(r), unicode.IsMark(r), unicode.IsNumber(r), unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Try it: `make demo`":                                  "try-it-make-demo",
		"`triage score`: one call, all metrics":                "triage-score-one-call-all-metrics",
		"Unsolvable injection (the paper's second experiment)": "unsolvable-injection-the-papers-second-experiment",
		"§2 Plan repair":                                       "2-plan-repair",
		"What the Executor's sandbox needs":                    "what-the-executors-sandbox-needs",
		"Reports: `triage report CONFIG|RUN_STORE`":            "reports-triage-report-configrun_store",
		"α and η — the headline":                               "α-and-η--the-headline",
		"[Linked](x.md) heading":                               "linked-heading",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

// TestSkipDir: the folders .gitignore lists, which a reader creates by
// following the README (my-eval/, triage-demo/, a RUN_STORE.report/), are
// not checked as the repository's documentation.
func TestSkipDir(t *testing.T) {
	for _, rel := range []string{"my-eval", "triage-demo", "bin", "my-eval/runs/run.db.report"} {
		if !skipDir(rel, filepath.Base(rel)) {
			t.Errorf("%s is walked", rel)
		}
	}
	for _, rel := range []string{"docs", "examples/own-model", "testdata", "clients/python"} {
		if skipDir(rel, filepath.Base(rel)) {
			t.Errorf("%s is skipped", rel)
		}
	}
}

func TestParse(t *testing.T) {
	p := parse("# Title\n\nSee [a](a.md#x), ![img](img/b.png \"t\") and `[c](not-a-link.md)`.\n" +
		"```sh\n[d](in-code.md)\n# not a heading\n```\n## Title\n[e](https://example.com)\n")
	var got []string
	for _, l := range p.links {
		got = append(got, fmt.Sprintf("%d:%s", l.line, l.target))
	}
	if want := "3:a.md#x 3:img/b.png 9:https://example.com"; strings.Join(got, " ") != want {
		t.Errorf("links %q, want %q", strings.Join(got, " "), want)
	}
	for _, a := range []string{"title", "title-1"} {
		if !p.anchors[a] {
			t.Errorf("anchor %q missing from %v", a, p.anchors)
		}
	}
	if p.anchors["not-a-heading"] {
		t.Error("a line of a code block was taken for a heading")
	}
}

// TestRelativeLinks checks every relative link of every Markdown file: the
// file or folder exists, and a #fragment into a Markdown file names one of
// its headings.
func TestRelativeLinks(t *testing.T) {
	files := markdownFiles(t)
	docs := map[string]parsed{}
	read := func(rel string) (parsed, error) {
		if p, ok := docs[rel]; ok {
			return p, nil
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return parsed{}, err
		}
		docs[rel] = parse(string(b))
		return docs[rel], nil
	}
	checked := 0
	for _, file := range files {
		p, err := read(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range p.links {
			if schemeRE.MatchString(l.target) {
				continue
			}
			checked++
			path, fragment, _ := strings.Cut(l.target, "#")
			target := file
			if path != "" {
				if strings.HasPrefix(path, "/") {
					t.Errorf("%s:%d: %s: a link from the repository root does not resolve on every host; make it relative", file, l.line, l.target)
					continue
				}
				target = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), path)))
				if strings.HasPrefix(target, "../") {
					t.Errorf("%s:%d: %s: points outside the repository", file, l.line, l.target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
					t.Errorf("%s:%d: %s: %s does not exist", file, l.line, l.target, target)
					continue
				}
			}
			if fragment == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			tp, err := read(target)
			if err != nil {
				t.Errorf("%s:%d: %s: %v", file, l.line, l.target, err)
				continue
			}
			if !tp.anchors[fragment] {
				t.Errorf("%s:%d: %s: %s has no heading with anchor #%s", file, l.line, l.target, target, fragment)
			}
		}
	}
	// The README, docs/ and the clients' READMEs hold well over a hundred
	// relative links: far fewer means the parser is broken, not the links.
	if checked < 100 {
		t.Fatalf("only %d relative links found in %d Markdown files: is the walk or the parser broken?", checked, len(files))
	}
	t.Logf("%d relative links checked in %d Markdown files", checked, len(files))
}
