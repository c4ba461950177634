package repair

import (
	"unicode/utf16"
	"unicode/utf8"
)

// unescape decodes the backslash escapes of a string body that the parser
// accepted. JSON's escapes are decoded (a \uD800–\uDBFF high surrogate
// followed by a \uDC00–\uDFFF low one makes one rune; a lone surrogate
// becomes U+FFFD); \' is a quote in a single-quoted string; any other escape
// is kept as written, backslash included ("\frac" stays `\frac`). Bytes that
// are not valid UTF-8 are kept as they are.
func unescape(raw string, single bool) string {
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			b = append(b, c)
			i++
			continue
		}
		switch e := raw[i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case '\'':
			if !single {
				b = append(b, '\\')
			}
			b = append(b, '\'')
		case 'u':
			r, ok := hex4(raw, i+2)
			if !ok {
				b = append(b, '\\', 'u')
				break
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r2, ok := hex4(raw, i+2); ok && i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						b = utf8.AppendRune(b, d)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
			continue
		default:
			b = append(b, '\\', e)
		}
		i += 2
	}
	return string(b)
}

// hex4 decodes the four hex digits at s[i:i+4].
func hex4(s string, i int) (rune, bool) {
	if i < 0 || i+4 > len(s) || !isHex4(s[i:i+4]) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		r <<= 4
		switch {
		case isDigit(c):
			r |= rune(c - '0')
		default:
			r |= rune(c|0x20-'a') + 10
		}
	}
	return r, true
}
