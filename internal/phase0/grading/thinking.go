package grading

import (
	"strings"
)

// StripThinking removes the thinking a reasoning model left inline in its
// content, for servers that return it there (e.g. vLLM without a reasoning
// parser): every <think>…</think> block is removed; a </think> without an
// opening tag (a chat template that pre-fills "<think>") discards
// everything before it; an unclosed <think> discards everything from it on,
// so a response cut off while thinking has no final content at all.
// Content without think tags is returned unchanged; otherwise the result
// is trimmed of surrounding white space.
func StripThinking(content string) string {
	const open, closing = "<think>", "</think>"
	if !strings.Contains(content, "think>") {
		return content
	}
	// parts are the pieces of final content; most responses have one, which
	// is returned without copying.
	var parts []string
	join := func() string {
		switch len(parts) {
		case 0:
			return ""
		case 1:
			return strings.TrimSpace(parts[0])
		}
		return strings.TrimSpace(strings.Join(parts, ""))
	}
	// o and c are the next opening and closing tags at or after i, or -1;
	// each is searched again only once i has passed it, so the scan is
	// linear however many tags there are.
	i := 0
	o, c := indexFrom(content, open, 0), indexFrom(content, closing, 0)
	for {
		if o >= 0 && o < i {
			o = indexFrom(content, open, i)
		}
		if c >= 0 && c < i {
			c = indexFrom(content, closing, i)
		}
		switch {
		case c >= 0 && (o < 0 || c < o):
			parts = parts[:0] // orphan close: what came before was thinking
			i = c + len(closing)
		case o >= 0:
			if o > i {
				parts = append(parts, content[i:o])
			}
			i = o + len(open)
			if c >= 0 && c < i {
				c = indexFrom(content, closing, i)
			}
			if c < 0 {
				return join()
			}
			i = c + len(closing)
		default:
			parts = append(parts, content[i:])
			return join()
		}
	}
}

// indexFrom is strings.Index(s[i:], sub) + i, or -1.
func indexFrom(s, sub string, i int) int {
	if k := strings.Index(s[i:], sub); k >= 0 {
		return i + k
	}
	return -1
}
