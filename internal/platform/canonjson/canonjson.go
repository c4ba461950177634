package canonjson

import (
	"bytes"
	"encoding/json"
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
