package jsonloc

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// token is the kind of a JSON token.
type token int

const (
	tokEnd     token = iota // no more input
	tokInvalid              // a byte no JSON token starts with
	tokOpenObject
	tokCloseObject
	tokOpenArray
	tokCloseArray
	tokColon
	tokComma
	tokString  // scanner.text holds its raw content
	tokLiteral // a number, true, false or null
)

// scanner splits a JSON document into tokens without validating them:
// decoding reports what is wrong with a document; indexing only has to find
// where its values start, in one pass and without allocating.
type scanner struct {
	data []byte
	pos  int    // just past the last token read
	text []byte // the raw content of the last string read, without quotes
	// literalStart is where the last literal read starts.
	literalStart int
}

// token reads the next token.
func (s *scanner) token() token {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
			continue
		}
		break
	}
	if s.pos >= len(s.data) {
		return tokEnd
	}
	c := s.data[s.pos]
	s.pos++
	switch c {
	case '{':
		return tokOpenObject
	case '}':
		return tokCloseObject
	case '[':
		return tokOpenArray
	case ']':
		return tokCloseArray
	case ':':
		return tokColon
	case ',':
		return tokComma
	case '"':
		start := s.pos
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case '\\':
				s.pos += 2
				continue
			case '"':
				s.text = s.data[start:s.pos]
				s.pos++
				return tokString
			}
			s.pos++
		}
		s.pos = len(s.data)
		return tokInvalid // unterminated
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 't', 'f', 'n':
		s.literalStart = s.pos - 1
		for s.pos < len(s.data) && !endsLiteral(s.data[s.pos]) {
			s.pos++
		}
		return tokLiteral
	}
	return tokInvalid
}

// endsLiteral reports whether c cannot be part of a number or literal.
func endsLiteral(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', ']', '}', '[', '{', '"':
		return true
	}
	return false
}

// decodeString returns the value of a string token's raw content as
// encoding/json decodes it (escapes resolved, invalid UTF-8 replaced).
func decodeString(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	var s string
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	if err := json.Unmarshal(quoted, &s); err != nil {
		return string(raw)
	}
	return s
}
