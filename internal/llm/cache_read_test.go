package llm

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestCacheOpenedToRead: a cache opened to read answers what is stored,
// on every backend, and refuses a Put (nothing is written); a SQLite file
// that is not there is an error, not a new empty cache.
func TestCacheOpenedToRead(t *testing.T) {
	ctx := context.Background()
	for name, location := range cacheLocations(t) {
		t.Run(name, func(t *testing.T) {
			loc := location(t)
			if err := openTestCache(t, loc).Put(ctx, "k", Response{Content: "four", ObtainedAt: testNow}); err != nil {
				t.Fatal(err)
			}
			c, err := OpenCacheToRead(ctx, loc)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if got, ok, err := c.Get(ctx, "k"); err != nil || !ok || got.Content != "four" {
				t.Errorf("Get = %+v, %v, %v; want the stored response", got, ok, err)
			}
			if err := c.Put(ctx, "new", Response{Content: "five", ObtainedAt: testNow}); err == nil {
				t.Error("Put into a cache opened to read succeeded")
			}
			if n, err := c.Len(ctx); n != 1 || err != nil {
				t.Errorf("Len = %d, %v; want the one response stored before", n, err)
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "missing.db")
	if c, err := OpenCacheToRead(ctx, missing); err == nil {
		c.Close()
		t.Errorf("OpenCacheToRead(%s) of no file succeeded", missing)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("opening a missing cache to read made %s: %v", missing, err)
	}
}
