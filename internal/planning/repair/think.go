package repair

import "strings"

// thinkTags are the reasoning-block tags, matched without regard to case.
var (
	openTags  = [...]string{"<think>", "<thinking>"}
	closeTags = [...]string{"</think>", "</thinking>"}
)

// tagAt returns the length of the reasoning tag at s[i:] (s[i] is '<') and
// whether it closes a block; 0 when there is none.
func tagAt(s string, i int) (n int, closing bool) {
	rest := s[i:]
	for _, t := range openTags {
		if hasPrefixFold(rest, t) {
			return len(t), false
		}
	}
	for _, t := range closeTags {
		if hasPrefixFold(rest, t) {
			return len(t), true
		}
	}
	return 0, false
}

// stripThink removes reasoning blocks from s (SPEC §2 step 1): each
// <think>…</think> or <thinking>…</thinking> (either closing tag ends
// either opening one; tags in any case; an opening tag inside a block is
// part of it); an opening tag never closed removes everything after it; and
// a closing tag with no opening tag removes everything before it, since
// chat templates often put the opening tag in the prompt. It returns the
// remaining text, the number of blocks removed and how many bytes they
// held. Without tags s is returned as is. Time is linear in len(s).
func stripThink(s string) (out string, blocks, removed int) {
	var b strings.Builder
	keep := 0 // start of the text not yet copied or discarded
	inBlock := false
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			break
		}
		i += j
		n, closing := tagAt(s, i)
		if n == 0 {
			i++
			continue
		}
		switch {
		case !closing && !inBlock:
			b.WriteString(s[keep:i])
			inBlock, keep = true, i
		case closing && inBlock:
			blocks++
			removed += i + n - keep
			inBlock, keep = false, i+n
		case closing: // no opening tag: everything before it is reasoning
			blocks++
			removed += b.Len() + i + n - keep
			b.Reset()
			keep = i + n
		}
		i += n
	}
	if blocks == 0 && !inBlock {
		return s, 0, 0
	}
	if inBlock {
		blocks++
		removed += len(s) - keep
	} else {
		b.WriteString(s[keep:])
	}
	return b.String(), blocks, removed
}
