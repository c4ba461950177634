package llm

import (
	"context"
	"sync"
)

// dispatchKey is the context key of a call's dispatch notice.
type dispatchKey struct{}

// WithDispatchNotice returns ctx carrying notice, which Complete calls once,
// when it has a concurrency slot and is about to send its first attempt:
// the moment the call can no longer be withdrawn without losing what the
// provider may charge for it. It is not called for a call answered from
// the cache, nor for one that ends before it is sent (a drain, the
// context). The Planner service tells its remote caller with it
// (plancall.DispatchedHeader), so that a draining run withdraws only the
// calls still queued.
func WithDispatchNotice(ctx context.Context, notice func()) context.Context {
	return context.WithValue(ctx, dispatchKey{}, sync.OnceFunc(notice))
}

// noticeDispatch calls ctx's dispatch notice, if it has one.
func noticeDispatch(ctx context.Context) {
	if notice, ok := ctx.Value(dispatchKey{}).(func()); ok {
		notice()
	}
}
