package scoring

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// strictProblems finds what encoding/json lets through but the services
// refuse over HTTP/JSON (protojson does): bytes that are not UTF-8, which
// encoding/json replaces with U+FFFD (two distinct ids could become one),
// and a key repeated in one object, of which it keeps the last silently.
// data has decoded without error, so it is JSON nested at most 10,000
// levels deep (encoding/json's bound), which bounds the recursion.
func strictProblems(data []byte) []Problem {
	if !utf8.Valid(data) {
		off := 0
		for {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return []Problem{{Line: jsonloc.LineAt(data, int64(off)), Reason: "invalid UTF-8: the document must be UTF-8 text"}}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var problems []Problem
	var walk func(path string) bool
	walk = func(path string) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return false
				}
				key, _ := kt.(string)
				field := key
				if path != "" {
					field = path + "." + key
				}
				if seen[key] {
					problems = append(problems, Problem{Line: jsonloc.LineAt(data, dec.InputOffset()), Field: field, Reason: "duplicate key"})
				}
				seen[key] = true
				if !walk(field) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if !walk(path + "[" + strconv.Itoa(i) + "]") {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		}
		return true
	}
	walk("")
	return problems
}
