package work

import (
	"context"
	"time"
)

// Store is where workers of one run claim units and find them done. Every
// method is one round trip; implementations are safe for concurrent use.
type Store interface {
	// Claim gives worker, until until, each of keys that nobody holds (or
	// whose holder's lease ended before now) and that is not stored fresh
	// with the fingerprint at the same index of fingerprints; it returns
	// the keys taken. A worker that holds a key already renews it.
	Claim(ctx context.Context, keys, fingerprints []string, worker string, now, until time.Time) (map[string]bool, error)
	// Renew extends every lease worker holds until until.
	Renew(ctx context.Context, worker string, until time.Time) error
	// Release gives up worker's claims on keys.
	Release(ctx context.Context, worker string, keys []string) error
	// Holders returns every claimed key with when its lease ends.
	Holders(ctx context.Context) (map[string]time.Time, error)
	// Fresh returns, by key, the fingerprint of each unit of keys stored
	// fresh (done and not failed); nil when the store cannot tell, and
	// then units are done again until this worker claims them. A worker
	// waiting for the last units of a large run looks often (Leases.PollAfter),
	// so a store should read those units only, as the run store does for
	// cells.
	Fresh(ctx context.Context, keys []string) (map[string]string, error)
}
