package htmlreport

import (
	"strings"
)

// undefinedText shows an undefined mean, as the report's tables do.
const undefinedText = "—"

// slug turns text into an id fragment: lower-case letters and digits,
// runs of anything else as one "-".
func slug(text string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(text) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
