package llm

import (
	"context"
)

// Cache stores successful responses under a content-addressed key (see
// cacheKey). Implementations must be safe for concurrent use.
type Cache interface {
	// Get returns the response stored under key, and whether there is one.
	Get(ctx context.Context, key string) (Response, bool, error)
	// Put stores r under key. A key already stored keeps its response.
	Put(ctx context.Context, key string, r Response) error
}

// cacheKeyVersion changes whenever the key derivation or the meaning of a
// stored Response changes, so that old entries stop matching.
const cacheKeyVersion = "triage-llm-cache/v1"

// cacheKey returns the hex SHA-256 of the canonical JSON of
// {"base_url", "body", "v"}, where body is the exact request body the
// transport sends (canonical too): model, messages, temperature, the token
// limit, the mode fields, response_format and the extra body: every
// parameter that can change the answer, and nothing else. The API key is
// a header, never part of it; Endpoint.Name, Timeout, Concurrency and
// MaxAttempts do not change answers and are not part of it either. A
// repeated sample j ≥ 2 (Request.Sample) adds "sample": j, so it is cached
// apart from the first call, whose key (sample 0 or 1) is unchanged.
func cacheKey(baseURL string, w *wireRequest, sample int) (string, error) {
	body, err := w.body()
	if err != nil {
		return "", err
	}
	return bodyKey(baseURL, body, sample)
}

// bodyKey is cacheKey of the request body body, already built. It hashes
// the canonical JSON of {"base_url", "body", "sample", "v"} as it writes
// it, without building it: the keys in sorted order, body (already
// canonical and compact) verbatim. It is exactly the SHA-256 of
// encodeCanonical of that object (TestBodyKeyIsTheCanonicalDigest), at a
// fraction of the cost for long prompts (a quote hashes every prompt of a
// study).
func bodyKey(baseURL string, body []byte, sample int) (string, error) {
	return partsKey(baseURL, [][]byte{body}, sample)
}

// KeyChecker is a Cache that can say whether a key is stored without
// reading its response (Client.Cached uses it when the cache offers it).
type KeyChecker interface {
	Has(ctx context.Context, key string) (bool, error)
}

// KeysChecker is a Cache that can say which of many keys are stored in a
// few queries (Client.CachedAll uses it when the cache offers it).
type KeysChecker interface {
	// HasKeys returns the keys of keys that are stored.
	HasKeys(ctx context.Context, keys []string) (map[string]bool, error)
}
