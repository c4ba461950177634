package llm

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/platform/canonjson"
)

// requestKey is the cache key Complete computes for req (buildWire, then
// cacheKey), computed without encoding each message's content twice: the
// body is built with a short stand-in for every content, and the hash
// reads the stand-ins' bodies around the contents, each encoded once as
// the canonical body holds it. A study's prompts are hundreds of
// megabytes; go-openai's encoding of them (marshal, then compact) and the
// canonical rewrite are most of a quote's time. It gives cacheKey's digest
// exactly (TestRequestKeyIsCacheKey); a request it cannot splice exactly
// (an empty content, which go-openai leaves out; invalid UTF-8, which the
// canonical rewrite replaces; a stand-in that does not come out once and
// in order) takes cacheKey's way.
func (c *Client) requestKey(req Request, stubs stubBodies) (string, error) {
	if key, ok, err := splicedKey(c.ep, c.extraBody, c.baseURL, req, stubs); ok || err != nil {
		return key, err
	}
	w, err := buildWire(c.ep, c.extraBody, req)
	if err != nil {
		return "", err
	}
	key, err := cacheKey(c.baseURL, &w, req.Sample)
	if err != nil {
		return "", fmt.Errorf("cache key: %w", err)
	}
	return key, nil
}

// standIn is the content of message i in the body a spliced key is built
// from: ASCII that every JSON encoder writes as is.
func standIn(i int) string { return "triage-cache-key-stand-in-9f3c1d-" + strconv.Itoa(i) }

// stubBodies holds the stand-in bodies built for one client, by the shape
// of their request (max_output_tokens and roles; requests without a
// response format): the body is the same for every request of a shape. A
// nil stubBodies holds none.
type stubBodies map[string][]byte

// splicedKey is requestKey's spliced way; ok is false when req cannot be
// spliced exactly. stubs may hold req's stand-in body.
func splicedKey(ep Endpoint, extraBody map[string]any, baseURL string, req Request, stubs stubBodies) (key string, ok bool, err error) {
	stub := req
	stub.Messages = make([]Message, len(req.Messages))
	shape := strconv.Itoa(req.MaxOutputTokens)
	for i, m := range req.Messages {
		if m.Content == "" || !utf8.ValidString(m.Content) {
			return "", false, nil
		}
		stub.Messages[i] = Message{Role: m.Role, Content: standIn(i)}
		shape += "|" + m.Role
	}
	if req.ResponseFormat != nil {
		stubs = nil // a schema is not part of the shape
	}
	body, ok := stubs[shape]
	if !ok {
		w, err := buildWire(ep, extraBody, stub)
		if err != nil {
			return "", false, err
		}
		if body, err = w.body(); err != nil {
			return "", false, fmt.Errorf("cache key: %w", err)
		}
		if stubs != nil {
			stubs[shape] = body
		}
	}
	parts := make([][]byte, 0, 2*len(req.Messages)+1)
	rest := body
	for i, m := range req.Messages {
		quoted := []byte(`"` + standIn(i) + `"`)
		at := bytes.Index(rest, quoted)
		if at < 0 || bytes.Count(body, quoted) != 1 {
			return "", false, nil
		}
		content, err := contentJSON(m.Content)
		if err != nil {
			return "", false, fmt.Errorf("cache key: %w", err)
		}
		parts = append(parts, rest[:at], content)
		rest = rest[at+len(quoted):]
	}
	key, err = partsKey(baseURL, append(parts, rest), req.Sample)
	if err != nil {
		return "", false, fmt.Errorf("cache key: %w", err)
	}
	return key, true, nil
}

// contentJSON is encodeCanonical of content (valid UTF-8), written
// directly when content holds no character but those encoding/json writes
// as is or with a short escape every version of it uses (\n, \r, \t, \"
// and \\; HTML characters as is, as encodeCanonical writes them); any
// other control character, U+2028 or U+2029 takes encodeCanonical's way.
// Prompts are then copied once instead of encoded through a buffer.
func contentJSON(content string) ([]byte, error) {
	out := make([]byte, 0, len(content)+len(content)/16+2)
	out = append(out, '"')
	from := 0
	for i := 0; i < len(content); i++ {
		// Eight plain bytes at a time, then one at a time.
		for ; i+8 <= len(content); i += 8 {
			w := content[i : i+8]
			if !plainBits(uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56) {
				break
			}
		}
		if i >= len(content) {
			break
		}
		if plainJSON[content[i]] {
			continue
		}
		var esc string
		switch b := content[i]; {
		case b == '\n':
			esc = `\n`
		case b == '\r':
			esc = `\r`
		case b == '\t':
			esc = `\t`
		case b == '"':
			esc = `\"`
		case b == '\\':
			esc = `\\`
		case b < 0x20, b == 0xE2 && (strings.HasPrefix(content[i:], "\u2028") || strings.HasPrefix(content[i:], "\u2029")):
			return canonjson.Marshal(content)
		default:
			continue
		}
		out = append(append(out, content[from:i]...), esc...)
		from = i + 1
	}
	out = append(out, content[from:]...)
	return append(out, '"'), nil
}

// plainJSON marks the bytes contentJSON copies as they are: all but the
// control characters, the quote, the backslash and the first byte of
// U+2028 and U+2029 (which contentJSON looks at). A constant table.
var plainJSON = func() (t [256]bool) {
	for b := 0x20; b < 256; b++ {
		t[b] = b != '"' && b != '\\' && b != 0xE2
	}
	return t
}()

// plainWord reports whether the 8 bytes of w are all plainJSON, a word at
// a time: none below 0x20, none a quote, a backslash or 0xE2 (the
// classic "has a zero byte" and "has a byte less than n" tests).
func plainWord(w string) bool {
	return plainBits(uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56)
}

// plainBits is plainWord of the bytes of x.
func plainBits(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, b, e := x^(ones*'"'), x^(ones*'\\'), x^(ones*0xE2)
	return ((x-ones*0x20)&^x|(q-ones)&^q|(b-ones)&^b|(e-ones)&^e)&highs == 0
}

// partsKey is bodyKey of the body that is the concatenation of parts.
func partsKey(baseURL string, parts [][]byte, sample int) (string, error) {
	u, err := canonjson.Marshal(baseURL)
	if err != nil {
		return "", err
	}
	v, err := canonjson.Marshal(cacheKeyVersion)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	write(h, []byte(`{"base_url":`), u, []byte(`,"body":`))
	write(h, parts...)
	if sample >= 2 {
		write(h, []byte(`,"sample":`+strconv.Itoa(sample)))
	}
	write(h, []byte(`,"v":`), v, []byte(`}`))
	return hex.EncodeToString(h.Sum(nil)), nil
}

// write writes parts to h (a hash.Hash never fails to write).
func write(h hash.Hash, parts ...[]byte) {
	for _, p := range parts {
		if _, err := h.Write(p); err != nil {
			panic(fmt.Sprintf("hash write: %v", err))
		}
	}
}
