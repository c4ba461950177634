package server

import (
	"context"

	"google.golang.org/grpc/stats"
)

// callStackFrame is how much stack a call's goroutine is given at once,
// before the first of its stats hooks runs. grpc starts every call in a
// goroutine of its own, on a small stack; a call through the whole chain
// (stats handler, interceptors, handler, a service's scoring) outgrows it
// twice, and each growth copies the stack and rewrites every frame on it,
// the deeper the dearer. One growth while the stack is a few frames deep
// costs a fraction of that: a frame of 8 KiB on a goroutine of about 1 KiB
// gives it a 16 KiB stack, which the deepest unary call measured
// (ScorePlan over the paper's pool) stays within. The technique is
// CockroachDB's growstack.
const callStackFrame = 8 << 10

// stackGrowingHandler is a stats.Handler that gives a call's goroutine its
// stack (callStackFrame) before passing TagRPC on: grpc's server calls
// TagRPC first, in the goroutine that runs the call.
type stackGrowingHandler struct {
	stats.Handler
}

// TagRPC grows the goroutine's stack, then tags the call as h.Handler does.
func (h stackGrowingHandler) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	growStack()
	return h.Handler.TagRPC(ctx, info)
}

// growStack needs a frame of callStackFrame bytes, so the runtime grows
// the goroutine's stack to hold it, in one copy while the stack is shallow.
//
//go:noinline
func growStack() {
	var frame [callStackFrame]byte
	touchFrame(frame[:])
}

// touchFrame keeps growStack's frame from being optimized away.
//
//go:noinline
func touchFrame(b []byte) { b[len(b)-1] = 1 }
