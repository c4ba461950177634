package prompts

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/vocab"
)

//go:embed templates
var files embed.FS

// openings are the opening paragraphs of the planner prompt variants
// (SPEC §6); every vocab.Variants() has one.
var openings = map[vocab.Variant]string{
	vocab.Default: "templates/planner/opening_default.txt",
	vocab.Neutral: "templates/planner/opening_a.txt",
	vocab.Agent:   "templates/planner/opening_b.txt",
	vocab.Exam:    "templates/planner/opening_c.txt",
}

const (
	bodyFile   = "templates/planner/body.txt"
	bannerFile = "templates/solver/budget_aware_banner.txt"
)

// Template is a named, hashed prompt template.
type Template struct {
	// Name identifies the template, e.g. "planner/B".
	Name string
	// SHA256 is the hex SHA-256 of the template text (for the planner, the
	// opening and body files joined by a blank line).
	SHA256 string
	text   string
}

// Planner returns the planner template of a variant.
func Planner(v vocab.Variant) (Template, error) {
	path, ok := openings[v]
	if !ok {
		return Template{}, fmt.Errorf("unknown prompt variant %q (want default, A, B or C)", v)
	}
	opening, err := files.ReadFile(path)
	if err != nil {
		return Template{}, err
	}
	body, err := files.ReadFile(bodyFile)
	if err != nil {
		return Template{}, err
	}
	return newTemplate("planner/"+string(v), strings.TrimRight(string(opening), "\n")+"\n\n"+string(body)), nil
}

// BudgetAwareBanner returns the banner prepended to the standard solver
// prompt in the budget-aware re-solve (SPEC §5).
func BudgetAwareBanner() (Template, error) {
	text, err := files.ReadFile(bannerFile)
	if err != nil {
		return Template{}, err
	}
	return newTemplate("solver/budget_aware_banner", string(text)), nil
}

func newTemplate(name, text string) Template {
	sum := sha256.Sum256([]byte(text))
	return Template{Name: name, SHA256: hex.EncodeToString(sum[:]), text: text}
}

// Text returns the template text with its placeholders.
func (t Template) Text() string { return t.text }

// render replaces each {key} with its value, left to right, values not
// read again: what strings.Replacer does with these pairs, as no key holds
// a brace, without building a Replacer for every prompt.
func (t Template) render(values map[string]string) string {
	var b strings.Builder
	size := len(t.text)
	for _, v := range values {
		size += len(v) + 64 // a short value may appear more than once
	}
	b.Grow(size)
	rest := t.text
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open+1:], '}')
		if end < 0 {
			break
		}
		key := rest[open+1 : open+1+end]
		v, ok := values[key]
		if !ok || strings.IndexByte(key, '{') >= 0 {
			b.WriteString(rest[:open+1])
			rest = rest[open+1:]
			continue
		}
		b.WriteString(rest[:open])
		b.WriteString(v)
		rest = rest[open+end+2:]
	}
	b.WriteString(rest)
	return b.String()
}

// Banner renders the budget-aware banner for an allocation of tokens.
func (t Template) Banner(tokens int64) string {
	return t.render(map[string]string{"a_i": strconv.FormatInt(tokens, 10)})
}
