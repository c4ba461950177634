package jsonloc

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// OddityKind names what encoding/json lets through silently.
type OddityKind int

const (
	// RepeatedKey is a key written twice in one object: encoding/json
	// keeps its last value.
	RepeatedKey OddityKind = iota + 1
	// NullElement is null as an element of a list: encoding/json reads it
	// as an element of empty fields.
	NullElement
)

// Oddity is one place of a JSON document where encoding/json would read
// something other than what was written, without an error.
type Oddity struct {
	// Line is where it is (1-based).
	Line int
	// Field is its path: "a.b[2].c" (the key, for a RepeatedKey).
	Field string
	// Kind says what it is.
	Kind OddityKind
}

// Oddities walks data, a JSON document that decoded without error (so
// nested at most encoding/json's 10,000 levels, which bounds the
// recursion), and returns, in document order, every key repeated in one
// object (at its second occurrence) and every null element of a list.
// This is the one walker of the rule: the run store's score inputs, the
// endpoints file and ground-truth lines read it.
func Oddities(data []byte) []Oddity {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []Oddity
	var walk func(path string, element bool) bool
	walk = func(path string, element bool) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if tok == nil && element {
			out = append(out, Oddity{Line: LineAt(data, dec.InputOffset()), Field: path, Kind: NullElement})
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
					out = append(out, Oddity{Line: LineAt(data, dec.InputOffset()), Field: field, Kind: RepeatedKey})
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
	return out
}
