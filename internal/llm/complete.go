package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Complete sends req and returns the first choice, retrying transient
// failures (see the package documentation). Errors are *EndpointError
// wrapping one of: *apperr.InvalidArgumentError for a bad req, a
// non-retryable *StatusError, an *ExhaustedError whose Last is the final
// transient error, the context's error, or a failed cache lookup. A
// fresh response is stored in the cache only when it is Measured; when
// storing it fails, Complete returns it all the same with a nil error,
// since the provider answered (and was paid), and reports the failure
// through WithCacheStoreFailed.
func (c *Client) Complete(ctx context.Context, req Request) (Response, error) {
	if err := req.validate(); err != nil {
		return Response{}, c.wrap(err)
	}
	w, key, err := c.wire(req)
	if err != nil {
		return Response{}, c.wrap(err)
	}
	if c.opts.cache != nil {
		r, ok, err := c.opts.cache.Get(ctx, key)
		if err != nil {
			return Response{}, c.wrap(fmt.Errorf("cache lookup: %w", err))
		}
		if ok {
			// The stored usage is the measurement; the cost is re-derived
			// so that entries stored under an earlier rule read with
			// today's (SPEC §1).
			r.setCost()
			r.CacheHit = true
			c.metrics.call(ctx, outcomeCacheHit, &r)
			return r, nil
		}
	}
	r, err := c.sendWithin(ctx, &w, c.ep.TotalTimeout)
	if err != nil {
		if !errors.Is(err, ErrNotSent) { // a drained call is neither answered nor failed
			c.metrics.call(ctx, outcomeFailed, nil)
		}
		return Response{}, c.wrap(err)
	}
	c.metrics.call(ctx, outcomeAnswered, &r)
	c.store(ctx, key, r)
	return r, nil
}

// store keeps the fresh response r under key when the client has a cache
// and r is Measured: a response that measures nothing is not kept, so the
// next identical call asks the provider again instead of replaying it. A
// failure to store is reported (WithCacheStoreFailed), not returned: the
// caller uses the answer it paid for, and only a later identical call
// asks again.
func (c *Client) store(ctx context.Context, key string, r Response) {
	if c.opts.cache == nil {
		return
	}
	if !r.Measured() {
		// Said once per client: with a provider that never reports usage,
		// the cache silently stopped sparing any call.
		if c.unmeasured.CompareAndSwap(false, true) {
			c.opts.cacheStoreFailed(ctx, c.wrap(ErrUnmeasured))
		}
		return
	}
	if err := c.opts.cache.Put(ctx, key, r); err != nil {
		c.opts.cacheStoreFailed(ctx, c.wrap(fmt.Errorf("cache store: %w", err)))
	}
}

// wire builds req's body and, when the client has a cache, its cache key.
func (c *Client) wire(req Request) (wireRequest, string, error) {
	w, err := buildWire(c.ep, c.extraBody, req)
	if err != nil || c.opts.cache == nil {
		return w, "", err
	}
	key, err := cacheKey(c.baseURL, &w, req.Sample)
	if err != nil {
		return w, "", fmt.Errorf("cache key: %w", err)
	}
	return w, key, nil
}

// Cached reports whether Complete would answer req from the cache, without
// calling the provider: the same body and key Complete computes. A client
// without a cache has nothing cached.
func (c *Client) Cached(ctx context.Context, req Request) (bool, error) {
	if err := req.validate(); err != nil {
		return false, c.wrap(err)
	}
	if c.opts.cache == nil {
		return false, nil
	}
	key, err := c.requestKey(req, nil)
	if err != nil {
		return false, c.wrap(err)
	}
	var ok bool
	if kc, has := c.opts.cache.(KeyChecker); has {
		ok, err = kc.Has(ctx, key)
	} else {
		_, ok, err = c.opts.cache.Get(ctx, key)
	}
	if err != nil {
		return false, c.wrap(fmt.Errorf("cache lookup: %w", err))
	}
	return ok, nil
}

// CachedAll is Cached of every request of reqs, in order, asking the
// cache about all their keys at once when it can (KeysChecker): a quote
// looks up every call of a study.
func (c *Client) CachedAll(ctx context.Context, reqs []Request) ([]bool, error) {
	out := make([]bool, len(reqs))
	for _, req := range reqs {
		if err := req.validate(); err != nil {
			return nil, c.wrap(err)
		}
	}
	if c.opts.cache == nil {
		return out, nil
	}
	kc, batched := c.opts.cache.(KeysChecker)
	if !batched {
		for i, req := range reqs {
			ok, err := c.Cached(ctx, req)
			if err != nil {
				return nil, err
			}
			out[i] = ok
		}
		return out, nil
	}
	keys := make([]string, len(reqs))
	stubs := stubBodies{}
	for i, req := range reqs {
		key, err := c.requestKey(req, stubs)
		if err != nil {
			return nil, c.wrap(err)
		}
		keys[i] = key
	}
	stored, err := kc.HasKeys(ctx, keys)
	if err != nil {
		return nil, c.wrap(fmt.Errorf("cache lookup: %w", err))
	}
	for i, k := range keys {
		out[i] = stored[k]
	}
	return out, nil
}

// sendWithin is send bounded by within (Endpoint.TotalTimeout for
// Complete), if > 0. When that bound, not the caller, ends the call, the
// error is a *TimeoutError for the whole call.
func (c *Client) sendWithin(ctx context.Context, w *wireRequest, within time.Duration) (Response, error) {
	if within <= 0 {
		return c.send(ctx, w)
	}
	total := &TimeoutError{After: within, Whole: true}
	bounded, cancel := context.WithTimeoutCause(ctx, within, total)
	defer cancel()
	r, err := c.send(bounded, w)
	if err != nil && ctx.Err() == nil && context.Cause(bounded) == total {
		var rw *retryWaitError
		if errors.As(err, &rw) {
			total.Last = rw.last
		}
		return Response{}, total
	}
	return r, err
}

// retryWaitError says the wait before a retry was cut short by the context.
type retryWaitError struct {
	wait    time.Duration
	attempt int
	last    error // the failed attempt's error
	err     error // the context's error
}

// Error says which wait ended and why the attempt before it failed.
func (e *retryWaitError) Error() string {
	return fmt.Sprintf("waiting %s to retry after attempt %d (%v): %v", e.wait, e.attempt, e.last, e.err)
}

// Unwrap returns the context's error.
func (e *retryWaitError) Unwrap() error { return e.err }

// send makes up to Endpoint.MaxAttempts attempts, holding a concurrency
// slot only while a request is in flight, and waiting between attempts as
// Retry-After says or with jittered exponential backoff. Once the Client
// drains (WithDrain) it sends nothing more: a call waiting for a slot or
// for its retry ends with ErrNotSent.
func (c *Client) send(ctx context.Context, w *wireRequest) (Response, error) {
	var last error // the failed attempt before this one
	for n := 1; ; n++ {
		if err := c.sem.acquire(ctx, c.opts.drain); err != nil {
			if errors.Is(err, ErrNotSent) && last != nil {
				return Response{}, &NotSentError{Attempts: n - 1, Last: last}
			}
			return Response{}, fmt.Errorf("waiting for a concurrency slot: %w", err)
		}
		noticeDispatch(ctx)
		o := c.attempt(ctx, w)
		c.sem.release()
		if o.err == nil {
			o.resp.Attempts = n
			return o.resp, nil
		}
		if !o.retry {
			return Response{}, o.err
		}
		if n >= c.ep.MaxAttempts {
			return Response{}, &ExhaustedError{Attempts: n, Last: o.err}
		}
		wait := o.wait
		if !o.hasWait {
			wait = c.backoff.delay(n)
		}
		if err := c.sleepUnlessDrained(ctx, wait); err != nil {
			if ctx.Err() == nil && draining(c.opts.drain) {
				return Response{}, &NotSentError{Attempts: n, Last: o.err}
			}
			return Response{}, &retryWaitError{wait: wait, attempt: n, last: o.err, err: err}
		}
		last = o.err
		c.metrics.retry(ctx, o.err)
	}
}

// wrap names the endpoint in err.
func (c *Client) wrap(err error) error {
	return &EndpointError{Endpoint: c.ep.Name, Err: err}
}

// sleepUnlessDrained waits d before a retry, as the Client's sleep does,
// ending early when the Client drains (WithDrain).
func (c *Client) sleepUnlessDrained(ctx context.Context, d time.Duration) error {
	if c.opts.drain == nil {
		return c.opts.sleep(ctx, d)
	}
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case <-c.opts.drain:
			cancel(ErrNotSent)
		case <-sctx.Done():
		}
	}()
	return c.opts.sleep(sctx, d)
}
