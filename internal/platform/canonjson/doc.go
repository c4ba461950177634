// Package canonjson writes JSON for bytes that are hashed or compared: a
// problem's digest, a model call's cache key and body. Marshal is
// encoding/json's encoding (map keys sorted, no insignificant space) without
// its HTML escaping of <, > and & and without the encoder's trailing
// newline, so that the bytes of a text are the text's own and two builds that
// hash the same value hash the same bytes. Canonical re-encodes a JSON
// document the same way, numbers as written.
package canonjson
