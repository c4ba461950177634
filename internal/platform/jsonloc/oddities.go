package jsonloc

import (
	"bytes"
	"strconv"
	"unicode/utf8"
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
	// Field is its path: "a.b[2].c" (the key, for a RepeatedKey); a deep
	// path or a long key is shortened with "…" (fieldPath).
	Field string
	// Kind says what it is.
	Kind OddityKind
}

// MaxOddities is how many oddities Oddities returns at most: enough for any
// message, and with the bound on each one's path (fieldPath) a bound on
// the memory a hostile document full of them costs.
const MaxOddities = 100

// Oddities walks data, a JSON document that decoded without error, and
// returns, in document order, every key repeated in one object (at its
// second occurrence) and every null element of a list, up to MaxOddities
// of them. Keys are compared
// as encoding/json decodes them (escapes resolved). This is the one walker
// of the rule: the run store's score inputs, the endpoints file and
// ground-truth lines read it.
//
// It reads data in one pass with the package's scanner, as Build does
// (encoding/json's Decoder.Token allocates an error for every value it
// reads inside a container, and a ground-truth import checks every line),
// keeps the open containers on a stack rather than recursing, and builds a
// path only for an oddity found. A document that is not valid JSON is
// walked up to where it stops making sense.
func Oddities(data []byte) []Oddity {
	w := odditiesWalker{sc: scanner{data: data}, lines: lineCounter{data: data, line: 1}}
	if !w.value(w.sc.token()) {
		return w.out
	}
	for len(w.stack) > 0 && len(w.out) < MaxOddities {
		top := &w.stack[len(w.stack)-1]
		kind := w.sc.token()
		if kind == tokCloseArray && top.array || kind == tokCloseObject && !top.array {
			w.stack = w.stack[:len(w.stack)-1]
			continue
		}
		if top.next > 0 {
			if kind != tokComma {
				return w.out
			}
			kind = w.sc.token()
		}
		top.next++
		switch {
		case !top.array:
			if kind != tokString {
				return w.out
			}
			if top.member(w.sc.text) {
				w.found(RepeatedKey)
			}
			if w.sc.token() != tokColon {
				return w.out
			}
			kind = w.sc.token()
		case kind == tokLiteral && string(data[w.sc.literalStart:w.sc.pos]) == "null":
			w.found(NullElement)
		}
		if !w.value(kind) {
			return w.out
		}
	}
	return w.out
}

// odditiesWalker is Oddities' state: the open containers and what was
// found.
type odditiesWalker struct {
	sc    scanner
	lines lineCounter // the oddities are found in document order
	stack []oddFrame
	parts []pathPart // found's, kept between oddities
	out   []Oddity
}

// oddFrame is one open array or object.
type oddFrame struct {
	array bool
	// next is the index of the next element, or the number of members
	// seen: the current one is next-1.
	next int
	// key is the current member's key, decoded (objects).
	key []byte
	// keys are the keys seen; past smallObject of them seen holds them
	// instead, so that a wide object costs linear time.
	keys [][]byte
	seen map[string]bool
}

// smallObject is how many keys an object's frame compares one by one
// before it indexes them.
const smallObject = 16

// value takes the first token of a value, just read, and opens it if it is
// a container. It reports false when the token starts no value.
func (w *odditiesWalker) value(kind token) bool {
	switch kind {
	case tokString, tokLiteral:
	case tokOpenArray, tokOpenObject:
		w.stack = append(w.stack, oddFrame{array: kind == tokOpenArray})
	default:
		return false
	}
	return true
}

// member makes raw, the raw content of a key, f's current member's key and
// reports whether f has seen it already.
func (f *oddFrame) member(raw []byte) bool {
	f.key = raw
	if bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw) {
		f.key = []byte(decodeString(raw))
	}
	if f.seen != nil {
		repeated := f.seen[string(f.key)]
		f.seen[string(f.key)] = true
		return repeated
	}
	for _, k := range f.keys {
		if bytes.Equal(k, f.key) {
			return true
		}
	}
	f.keys = append(f.keys, f.key)
	if len(f.keys) > smallObject {
		f.seen = make(map[string]bool, 2*len(f.keys))
		for _, k := range f.keys {
			f.seen[string(k)] = true
		}
	}
	return false
}

// found records an oddity of kind at the token just read, whose path is
// that of the innermost container's current member or element.
func (w *odditiesWalker) found(kind OddityKind) {
	w.parts = w.parts[:0]
	for _, f := range w.stack {
		w.parts = append(w.parts, pathPart{array: f.array, index: f.next - 1, key: f.key})
	}
	w.out = append(w.out, Oddity{Line: w.lines.at(int64(w.sc.pos)), Field: fieldPath(w.parts), Kind: kind})
}

// pathPart is one step of an oddity's path: an element of an array (its
// index) or a member of an object (its key).
type pathPart struct {
	array bool
	index int
	key   []byte
}

// maxPathParts and maxPathKey bound an oddity's path (fieldPath).
const (
	maxPathParts = 16
	maxPathKey   = 64
)

// fieldPath renders parts as an Oddity's Field: "a.b[2].c". A path of more
// than maxPathParts steps keeps its first and last maxPathParts/2 with "…"
// between, and a key longer than maxPathKey bytes is cut (at a character)
// and ends in "…": a message names where the oddity is, and MaxOddities
// paths of a hostile document cost a few hundred kilobytes at most, however
// deep it is and however long its keys.
func fieldPath(parts []pathPart) string {
	var path []byte
	for i, p := range parts {
		if len(parts) > maxPathParts && i >= maxPathParts/2 && i < len(parts)-maxPathParts/2 {
			if i == maxPathParts/2 {
				path = append(path, "…"...)
			}
			continue
		}
		switch {
		case p.array:
			path = append(strconv.AppendInt(append(path, '['), int64(p.index), 10), ']')
		case i > 0: // by step, not by what is written: an empty first key still shows
			path = append(append(path, '.'), clipKey(p.key)...)
		default:
			path = append(path, clipKey(p.key)...)
		}
	}
	return string(path)
}

// clipKey is key, cut after maxPathKey bytes (at the start of a
// character) with "…" appended.
func clipKey(key []byte) []byte {
	if len(key) <= maxPathKey {
		return key
	}
	n := maxPathKey
	for n > 0 && !utf8.RuneStart(key[n]) {
		n--
	}
	return append(key[:n:n], "…"...)
}
