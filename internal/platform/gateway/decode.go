package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// jsonMarshaler is runtime.JSONPb with a decoder that, when a request body
// cannot be read, leaves on the body what was wrong and where, so that
// errorHandler can answer a google.rpc.BadRequest naming the field, as the
// server does for a value it rejects (grpc-gateway answers a bare
// InvalidArgument with protojson's message).
type jsonMarshaler struct {
	*runtime.JSONPb
}

// NewDecoder returns a decoder of the JSON values read from r, one per
// Decode, as runtime.JSONPb's decoder does.
func (m jsonMarshaler) NewDecoder(r io.Reader) runtime.Decoder {
	body, _ := r.(*cappedBody)
	return &bodyDecoder{dec: json.NewDecoder(r), opts: m.UnmarshalOptions, body: body}
}

// bodyDecoder decodes each JSON value of a body (an import sends several)
// with protojson, and notes on body why a value could not be decoded.
type bodyDecoder struct {
	dec  *json.Decoder
	opts protojson.UnmarshalOptions
	body *cappedBody // nil when the reader is not a request body
	n    int         // values decoded before this one
}

// Decode decodes the next JSON value into v. A body that ends before it
// gives io.EOF, as with runtime.JSONPb.
func (d *bodyDecoder) Decode(v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return runtime.DecoderWrapper{Decoder: d.dec, UnmarshalOptions: d.opts}.Decode(v)
	}
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		if !errors.Is(err, io.EOF) {
			d.note(bodyField, notJSON(err))
		}
		return err
	}
	err := d.opts.Unmarshal(raw, m)
	if err != nil {
		d.note(describeDecodeError(raw, err))
	}
	d.n++
	if err == nil && d.body != nil && d.body.single {
		err = d.end()
	}
	return err
}

// end reports anything after a single-message body's JSON value (a second
// value, or bytes that are not JSON), which would otherwise be dropped
// unread: the request the caller meant is not known.
func (d *bodyDecoder) end() error {
	at := d.dec.InputOffset()
	_, err := d.dec.Token()
	var syntax *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case d.body.overflow || (d.body.pace != nil && d.body.pace.slow):
		return err // the body's own read error: over its cap, too slow
	case err != nil && !errors.As(err, &syntax) && !errors.Is(err, io.ErrUnexpectedEOF):
		return err // cut off, or another read error
	}
	d.n = 0 // the note is about the body, not a message of it
	d.note(bodyField, fmt.Sprintf("holds more after its JSON value, which ends at byte %d: send one request message, and nothing after it", at))
	return errors.New("the body holds more after its JSON value")
}

// note records on the body why value d.n could not be decoded.
func (d *bodyDecoder) note(field, description string) {
	if d.body == nil || d.body.overflow {
		return
	}
	if d.n > 0 {
		description += fmt.Sprintf(" (in message %d of the body)", d.n+1)
	}
	d.body.unreadable = apperr.Invalid(field, "%s", description)
}

// bodyField names the request body as a whole, where no field of it can be
// named: the body is not JSON, or the error is not about one value.
const bodyField = "body"

// notJSON describes an error of encoding/json reading a value that is not
// JSON at all.
func notJSON(err error) string {
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("not valid JSON: %v (at byte %d)", err, syntax.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "not valid JSON: the body ends inside a value"
	}
	return "not readable: " + err.Error()
}

// protojsonError matches protojson's errors that carry a position:
// "proto: (line 1:29): invalid value for int64 field cost: 1e30", or
// "proto: syntax error (line 1:5): unexpected token …" (the space after
// "proto:" is sometimes a non-breaking one, on purpose).
var (
	protojsonError  = regexp.MustCompile(`^proto:[\s\x{a0}]+(?:syntax error )?\(line (\d+):(\d+)\):[\s\x{a0}]*(.*)$`)
	protojsonPrefix = regexp.MustCompile(`^proto:[\s\x{a0}]+`)
)

// describeDecodeError names the value of raw that protojson's err is about:
// its path ("items[0].cost", keys as the body writes them), and what was
// wrong with it with its line and column in the value.
func describeDecodeError(raw []byte, err error) (field, description string) {
	msg := err.Error()
	sub := protojsonError.FindStringSubmatch(msg)
	if sub == nil {
		return bodyField, "cannot be read as the request message: " + protojsonPrefix.ReplaceAllString(msg, "")
	}
	line, _ := strconv.Atoi(sub[1])
	column, _ := strconv.Atoi(sub[2])
	// encoding/json has already read raw as JSON, so a "syntax error" of
	// protojson's is a value of the wrong JSON type for its field ("items":
	// 5), not JSON that is not valid.
	description = fmt.Sprintf("%s (line %d, column %d)", sub[3], line, column)
	if path, ok := pathAt(raw, offsetOf(raw, line, column)); ok {
		return path, description
	}
	return bodyField, description
}

// offsetOf converts protojson's 1-based line and column (counted in runes)
// to a byte offset in raw.
func offsetOf(raw []byte, line, column int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(raw[off:], '\n')
		if i < 0 {
			return len(raw)
		}
		off += i + 1
	}
	for c := 1; c < column && off < len(raw); c++ {
		_, size := utf8.DecodeRune(raw[off:])
		off += size
	}
	return off
}

// pathAt returns the path of the value protojson's error at off is about.
// protojson places its errors on the offending token: a value (an invalid
// number, a wrong type, an unknown enum name) or a member's name (an unknown
// or repeated field), whose value is then the one meant. jsonloc indexes
// each value at the end of its first token, so the value is the one indexed
// at the end of the token at off, or at the end of the value after the
// member name's colon.
func pathAt(raw []byte, off int) (string, bool) {
	end, ok := tokenEnd(raw, off)
	if !ok {
		return "", false
	}
	_, offsets := jsonloc.BuildOffsets(raw)
	byOffset := make(map[int64]string, len(offsets))
	for path, o := range offsets {
		byOffset[o] = path
	}
	if path, ok := byOffset[int64(end)]; ok && path != "" {
		return path, true
	}
	// A member name: its value's first token follows the colon.
	next := skipSpace(raw, end)
	if next < len(raw) && raw[next] == ':' {
		if end, ok := tokenEnd(raw, skipSpace(raw, next+1)); ok {
			if path, ok := byOffset[int64(end)]; ok && path != "" {
				return path, true
			}
		}
	}
	return "", false
}

// tokenEnd returns the offset just past the JSON token starting at off: a
// string with its quotes, a bracket or brace, or a literal or number up to
// the next delimiter.
func tokenEnd(raw []byte, off int) (int, bool) {
	if off < 0 || off >= len(raw) {
		return 0, false
	}
	switch raw[off] {
	case '{', '[', '}', ']', ',', ':':
		return off + 1, true
	case '"':
		for i := off + 1; i < len(raw); i++ {
			switch raw[i] {
			case '\\':
				i++
			case '"':
				return i + 1, true
			}
		}
		return 0, false
	}
	i := off
	for i < len(raw) && strings.IndexByte(" \t\r\n,:{}[]\"", raw[i]) < 0 {
		i++
	}
	return i, i > off
}

// skipSpace returns the offset of the first byte at or after off that is
// not JSON whitespace.
func skipSpace(raw []byte, off int) int {
	for off < len(raw) && strings.IndexByte(" \t\r\n", raw[off]) >= 0 {
		off++
	}
	return off
}
