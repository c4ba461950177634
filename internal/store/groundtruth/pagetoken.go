package groundtruth

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// pageTokenVersion is the first byte of every token; it changes if the
// layout does, so old tokens are rejected instead of misread.
const pageTokenVersion = 1

// maxPageTokenBytes bounds what List will try to decode.
const maxPageTokenBytes = 4096

// fingerprintBytes is the length of a filter fingerprint.
const fingerprintBytes = 8

// filterFingerprint identifies the filters of q (not its page size or
// token): a token is valid only with the filters it was issued for.
func filterFingerprint(q ListQuery) []byte {
	h := sha256.New()
	field := func(s string) {
		h.Write(binary.AppendUvarint(nil, uint64(len(s))))
		h.Write([]byte(s))
	}
	if q.Solver != nil {
		field("solver")
		field(q.Solver.Model)
		field(q.Solver.Mode)
	}
	field("dataset")
	field(q.Dataset)
	if q.AllSamples {
		field("all_samples")
	}
	return h.Sum(nil)[:fingerprintBytes]
}

// encodePageToken returns the token that continues q after key last:
// base64url (no padding) of the version byte, the filter fingerprint and
// the four key strings, each prefixed by its length as a uvarint, then,
// for a listing of every sample, the sample as a uvarint. The key is kept
// byte for byte, whatever its encoding.
func encodePageToken(q ListQuery, last cursor) string {
	b := []byte{pageTokenVersion}
	b = append(b, filterFingerprint(q)...)
	for _, s := range []string{last.Solver.Model, last.Solver.Mode, last.Dataset, last.ProblemID} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	if q.AllSamples {
		b = binary.AppendUvarint(b, uint64(last.Sample))
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodePageToken returns the cursor after which q.PageToken continues, or nil
// when the token is empty. Errors match ErrInvalidPageToken and
// *apperr.InvalidArgumentError (field "page_token").
func decodePageToken(q ListQuery) (*cursor, error) {
	if q.PageToken == "" {
		return nil, nil
	}
	bad := func(why string) error {
		return fmt.Errorf("store: list: %w: %w", ErrInvalidPageToken, apperr.Invalid("page_token", "%s", why))
	}
	if len(q.PageToken) > maxPageTokenBytes {
		return nil, bad("too long")
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(q.PageToken)
	if err != nil || len(b) < 1+fingerprintBytes {
		return nil, bad("not a token issued by List")
	}
	if b[0] != pageTokenVersion {
		return nil, bad("token from another version")
	}
	if !bytes.Equal(b[1:1+fingerprintBytes], filterFingerprint(q)) {
		return nil, bad("token was issued for a different solver or dataset filter")
	}
	b = b[1+fingerprintBytes:]
	var parts [4]string
	for i := range parts {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, bad("not a token issued by List")
		}
		parts[i] = string(b[k : k+int(n)])
		b = b[k+int(n):]
	}
	c := &cursor{Key: Key{Solver: Solver{Model: parts[0], Mode: parts[1]}, Dataset: parts[2], ProblemID: parts[3]}}
	if q.AllSamples {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > MaxSample {
			return nil, bad("not a token issued by List")
		}
		c.Sample, b = int(n), b[k:]
	}
	if len(b) != 0 {
		return nil, bad("not a token issued by List")
	}
	return c, nil
}

// pageSize returns the number of records a page of q holds.
func pageSize(q ListQuery) (int, error) {
	switch {
	case q.PageSize < 0:
		return 0, fmt.Errorf("store: list: %w", apperr.Invalid("page_size", "must be ≥ 0, got %d", q.PageSize))
	case q.PageSize == 0:
		return DefaultPageSize, nil
	case q.PageSize > MaxPageSize:
		return MaxPageSize, nil
	}
	return q.PageSize, nil
}
