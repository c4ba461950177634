package server

import (
	"context"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc"
)

// The idle watch of a call is armed exactly while the server waits on the
// client, and ends the call when it stays armed for Deadlines.Idle:
//
//   - from the tap until the first interceptor runs: for a unary call,
//     while grpc reads its request;
//   - around every RecvMsg and SendMsg of a stream;
//   - after a unary handler returned, while grpc sends its answer.
//
// Inside the handler (a stream's messages), each wait runs in a goroutine
// of its own and the stream's RecvMsg or SendMsg returns the idle error as
// soon as the watch fires, so the handler returns it, as grpc advises (a
// server cannot interrupt a blocked RecvMsg); the call ends
// DeadlineExceeded with a message saying it was idle, its interceptors —
// its concurrency slot included — release what they hold, and grpc's end
// of the stream unblocks the goroutine. Outside the handler, no code of
// ours waits: the watch cancels the call's context, the one grpc reads and
// writes the stream with (the tap returns it), which ends the wait; grpc
// then answers the status of a cancelled call.

// idleWatchKey is the context key of a call's *idleWatch.
type idleWatchKey struct{}

// idleWatch ends one call whose client keeps the server waiting too long.
type idleWatch struct {
	limit     time.Duration
	afterFunc func(time.Duration, func()) func() bool
	cancel    context.CancelFunc
	expiredCh chan struct{} // closed when the watch fires

	mu      sync.Mutex
	stop    func() bool // the armed timer's, nil when disarmed
	armed   uint64      // counts arms, so that a timer stopped too late is told apart
	fired   bool
	ended   bool // the call is over: arm no more
	handled bool // the handler runs: fire signals expiredCh, cancels nothing
}

// watchIdle returns ctx, which grpc will read and write the call with,
// cancelled when the watch fires outside the handler, and starts the watch
// armed: nothing of the call has been read yet. The watch ends with ctx.
func watchIdle(ctx context.Context, limit time.Duration, afterFunc func(time.Duration, func()) func() bool) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	w := &idleWatch{limit: limit, afterFunc: afterFunc, cancel: cancel, expiredCh: make(chan struct{})}
	ctx = context.WithValue(ctx, idleWatchKey{}, w)
	w.arm()
	context.AfterFunc(ctx, w.end)
	return ctx
}

// idleWatchOf returns the watch of the call of ctx, or nil.
func idleWatchOf(ctx context.Context) *idleWatch {
	w, _ := ctx.Value(idleWatchKey{}).(*idleWatch)
	return w
}

// arm starts the clock: the server now waits on the client.
func (w *idleWatch) arm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop != nil || w.fired || w.ended {
		return
	}
	w.armed++
	n := w.armed
	w.stop = w.afterFunc(w.limit, func() { w.fire(n) })
}

// disarm stops the clock: the client did what the server waited for.
func (w *idleWatch) disarm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.disarmLocked()
}

func (w *idleWatch) disarmLocked() {
	if w.stop != nil {
		w.stop()
		w.stop = nil
	}
}

// setHandled says whether the handler runs (see fire), disarming the
// watch as the handler starts.
func (w *idleWatch) setHandled(running bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if running {
		w.disarmLocked()
	}
	w.handled = running
}

// fire ends the call, if the watch is still armed by arm number n.
func (w *idleWatch) fire(n uint64) {
	w.mu.Lock()
	if w.stop == nil || w.armed != n || w.ended {
		w.mu.Unlock()
		return // disarmed, or armed again, as the timer fired
	}
	w.stop, w.fired = nil, true
	handled := w.handled
	w.mu.Unlock()
	close(w.expiredCh)
	if !handled {
		w.cancel()
	}
}

// end disarms the watch for good: the call is over.
func (w *idleWatch) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.disarmLocked()
	w.ended = true
}

// expired reports whether the watch ended the call.
func (w *idleWatch) expired() bool {
	select {
	case <-w.expiredCh:
		return true
	default:
		return false
	}
}

// err is the call's error once the watch ended it: DeadlineExceeded
// (grpcerr maps context.DeadlineExceeded) with a message saying why.
func (w *idleWatch) err() error {
	return fmt.Errorf("the call was idle for %v (the client neither sent what the server waited for nor read what it sent), so the server ended it: %w", w.limit, context.DeadlineExceeded)
}

// wait runs op, a RecvMsg or SendMsg, with the watch armed, and returns its
// error, or the idle error as soon as the watch fires; op then goes on in
// the background until grpc ends the stream.
func (w *idleWatch) wait(op func() error) error {
	if w.expired() {
		return w.err()
	}
	w.arm()
	done := make(chan error, 1)
	go func() { done <- op() }()
	select {
	case err := <-done:
		w.disarm()
		return err
	case <-w.expiredCh:
		return w.err()
	}
}

// idleInterceptors take over the watch the tap armed: the call's request
// has been read, or its stream has started. While the handler runs, the
// watch times the stream's messages (idleStreamInterceptor); after a unary
// handler returned, it is armed again until grpc has sent the answer. They
// go right inside error mapping, so that the log and the caller see the
// idle error, and outside the guards, so that a call waiting for a
// concurrency slot is not idle.
func idleInterceptors() (grpc.UnaryServerInterceptor, grpc.StreamServerInterceptor) {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
			w := idleWatchOf(ctx)
			if w == nil {
				return handler(ctx, req)
			}
			w.setHandled(true)
			resp, err := handler(ctx, req)
			w.setHandled(false)
			if err == nil {
				w.arm() // until grpc has sent the answer
			}
			return resp, err
		}, func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
			w := idleWatchOf(ss.Context())
			if w == nil {
				return handler(srv, ss)
			}
			w.setHandled(true)
			err := handler(srv, ss)
			if w.expired() {
				return w.err()
			}
			return err
		}
}

// idleStreamInterceptor times every message of a stream with its watch.
// It goes innermost, so that a message received after the watch fired is
// still read to its end (readingStream) by the goroutine left waiting.
func idleStreamInterceptor(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	w := idleWatchOf(ss.Context())
	if w == nil {
		return handler(srv, ss)
	}
	return handler(srv, idleStream{ServerStream: ss, w: w})
}

// idleStream is a server stream whose messages the idle watch times.
type idleStream struct {
	grpc.ServerStream
	w *idleWatch
}

// RecvMsg waits for the next message with the watch armed.
func (s idleStream) RecvMsg(m any) error {
	return s.w.wait(func() error { return s.ServerStream.RecvMsg(m) })
}

// SendMsg sends a message with the watch armed: it blocks only while the
// client reads nothing.
func (s idleStream) SendMsg(m any) error {
	return s.w.wait(func() error { return s.ServerStream.SendMsg(m) })
}

// realAfterFunc is the real clock's AfterFunc.
func realAfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}
