package repair

import (
	"strconv"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/execution"
)

// Render returns the canonical JSON of a plan, with no whitespace:
//
//	{"plan":[{"id":"p3","tokens":800},{"id":"p1","tokens":1200}]}
//
// Ids are escaped as JSON strings: '"', '\\' and control characters, and '<'
// as \u003c so that no id can read as a reasoning tag; other bytes,
// including invalid UTF-8, are written as they are, so the output is valid
// JSON when the ids are valid UTF-8. Repairing the rendering of a repaired
// plan against the same pool gives Status OK, no Fixes and the same plan.
func Render(plan []execution.Step) string {
	var b strings.Builder
	n := len(`{"plan":[]}`)
	for _, s := range plan {
		n += len(`{"id":"","tokens":},`) + len(s.ID) + 20
	}
	b.Grow(n)
	b.WriteString(`{"plan":[`)
	var num [20]byte
	for k, s := range plan {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":`)
		writeString(&b, s.ID)
		b.WriteString(`,"tokens":`)
		b.Write(strconv.AppendInt(num[:0], s.Tokens, 10))
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	return b.String()
}

// writeString writes s as a JSON string literal.
func writeString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != '<' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
