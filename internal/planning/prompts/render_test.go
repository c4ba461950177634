package prompts

import (
	"strings"
	"testing"
)

// TestRenderIsReplacer checks render against strings.Replacer, which it
// stands in for, on placeholders next to braces of every other kind.
func TestRenderIsReplacer(t *testing.T) {
	values := map[string]string{"n": "3", "B": "{n} tokens", "B_local": "x", "": "empty"}
	for _, text := range []string{
		"", "plain", "{n}", "{n}{B}{B_local}", "{{n}}", "{a{n}", "{n", "n}", "}{n}{", "{unknown} {n} {}",
		"a {B} b {B_local} c {n}{", "{B_local}}{{", "{\n}{n}",
	} {
		pairs := []string{}
		for k, v := range values {
			pairs = append(pairs, "{"+k+"}", v)
		}
		want := strings.NewReplacer(pairs...).Replace(text)
		if got := (Template{text: text}).render(values); got != want {
			t.Errorf("render(%q) = %q, want %q", text, got, want)
		}
	}
}
