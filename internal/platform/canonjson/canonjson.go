package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Marshal is v as JSON: map keys sorted, no insignificant space, <, > and &
// as themselves, no trailing newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Canonical re-encodes the one JSON value raw as Marshal writes it, numbers
// exactly as written: two values of equal meaning (spacing and key order
// aside) have equal canonical forms. Trailing data after the value is an
// error.
func Canonical(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after JSON value")
	}
	return Marshal(v)
}
