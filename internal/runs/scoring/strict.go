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
// a key repeated in one object, of which it keeps the last silently, and
// null as an element of a list (an item or a step), which it reads as an
// element of empty fields.
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
	var walk func(path string, element bool) bool
	walk = func(path string, element bool) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if tok == nil && element {
			problems = append(problems, Problem{Line: jsonloc.LineAt(data, dec.InputOffset()), Field: path, Reason: "null is not allowed in a list: write an object"})
			return true
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
				if !walk(field, false) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if !walk(path+"["+strconv.Itoa(i)+"]", true) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		}
		return true
	}
	walk("", false)
	return problems
}
