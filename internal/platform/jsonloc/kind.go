package jsonloc

import "bytes"

// Kind names the kind of a JSON value as encoding/json's type errors do:
// "object", "array", "string", "bool", "null" or "number"; "nothing" for
// empty input. Surrounding white space is ignored.
func Kind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}
