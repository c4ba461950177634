package problems

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/triage-eval/triage/internal/platform/canonjson"
)

// digestVersion names the digest scheme: a change to what Digest covers,
// or to how it is written, is a new version.
const digestVersion = "triage/problem/v1"

// digestInputs is what a problem's Phase 0 outcome depends on: what the
// solver is shown and what grades its answer. The value is left out (it
// changes no cost and no verdict), and so are the problem's key fields.
type digestInputs struct {
	Version    string          `json:"version"`
	Text       string          `json:"text"`
	Grading    json.RawMessage `json:"grading,omitempty"`
	Unsolvable bool            `json:"unsolvable,omitempty"`
}

// Digest is the hex SHA-256 of what p's ground truth was measured from
// (SPEC §5, freshness): its text, its grading data (as a JSON value: spacing and key
// order aside) and its unsolvable mark. A ground-truth record carries the
// digest of the problem it measured; a problem that digests differently
// now has stale ground truth.
func Digest(p Problem) string {
	b, err := canonjson.Marshal(digestInputs{Version: digestVersion, Text: p.Text, Grading: canonicalGrading(p.Grading), Unsolvable: p.Unsolvable})
	if err != nil {
		// Grading that is not JSON (never from Read) is digested as bytes.
		b = append([]byte(digestVersion+"\x00"+p.Text+"\x00"), p.Grading...)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// canonicalGrading is raw as one JSON value with its objects' keys sorted
// and no insignificant space, numbers written as they were; raw itself when
// it is not JSON, nil when empty.
func canonicalGrading(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	out, err := canonjson.Canonical(raw)
	if err != nil {
		return raw
	}
	return out
}
