package server_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/triage-eval/triage/internal/platform/server"
)

// fakeTimers is a clock for server.Config.AfterFunc whose timers fire only
// when the test says so.
type fakeTimers struct {
	mu      sync.Mutex
	next    int
	pending map[int]func()
}

func newFakeTimers() *fakeTimers { return &fakeTimers{pending: map[int]func(){}} }

// AfterFunc schedules f, whatever d.
func (f *fakeTimers) AfterFunc(_ time.Duration, fn func()) func() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.next
	f.next++
	f.pending[id] = fn
	return func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		_, ok := f.pending[id]
		delete(f.pending, id)
		return ok
	}
}

// armed counts the timers scheduled and not stopped.
func (f *fakeTimers) armed() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.pending)
}

// fireAll runs every pending timer, as if their time had come.
func (f *fakeTimers) fireAll() {
	f.mu.Lock()
	fns := make([]func(), 0, len(f.pending))
	for id, fn := range f.pending {
		fns = append(fns, fn)
		delete(f.pending, id)
	}
	f.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// TestIdleStreamEndsAndFreesItsSlot: a stream whose client sends nothing
// holds its caller's only concurrency slot until the idle bound passes;
// then it ends DeadlineExceeded, saying it was idle, and the caller's next
// call runs. Calls that do not keep the server waiting leave no timer
// behind.
func TestIdleStreamEndsAndFreesItsSlot(t *testing.T) {
	timers := newFakeTimers()
	logs := &strings.Builder{}
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.Tokens = tokenTable(t)
	cfg.Limits = server.Limits{MaxConcurrent: 1}
	cfg.Deadlines.Idle = time.Minute
	cfg.AfterFunc = timers.AfterFunc
	p, svc := newProbe()
	conn := dial(t, serve(t, cfg, &syncWriter{w: logs}, nil, svc))
	ctx, cancel := context.WithTimeout(bearer(context.Background(), probeToken), 2*time.Minute) // a hang bound only
	defer cancel()

	if reply, err := call(ctx, conn, "hi"); err != nil || reply != "echo:hi" {
		t.Fatalf("first call = %q, %v", reply, err)
	}
	waitFor(t, func() bool { return timers.armed() == 0 })

	stream, err := conn.NewStream(ctx, &probeDesc.Streams[1], probeEchoMethod)
	if err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- stream.RecvMsg(new(wrapperspb.StringValue)) }()
	// The silent stream holds the slot: a call with a short deadline waits
	// for it in vain.
	waitFor(t, func() bool { return p.echoes.Load() == 1 })
	short, cancelShort := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancelShort()
	if _, err := call(short, conn, "hi"); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("call while the stream holds the slot = %v, want DeadlineExceeded", err)
	}
	waitFor(t, func() bool { return timers.armed() == 1 }) // the stream's wait in RecvMsg
	timers.fireAll()
	err = <-ended
	if status.Code(err) != codes.DeadlineExceeded || !strings.Contains(status.Convert(err).Message(), "idle for 1m0s") {
		t.Fatalf("idle stream ended with %v, want DeadlineExceeded saying it was idle\n%s", err, logs)
	}
	if reply, err := call(ctx, conn, "after"); err != nil || reply != "echo:after" {
		t.Errorf("call after the idle stream ended = %q, %v; want its slot free", reply, err)
	}
	if !strings.Contains(logs.String(), `"grpc.code":"DeadlineExceeded"`) {
		t.Errorf("the idle stream's end is not logged:\n%s", logs)
	}
}

// TestIdleBoundsAStreamBetweenMessages: the watch times each wait for a
// message, not the stream: a stream that keeps sending lives on, each
// message resetting the bound.
func TestIdleBoundsAStreamBetweenMessages(t *testing.T) {
	timers := newFakeTimers()
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.Deadlines.Idle = time.Minute
	cfg.AfterFunc = timers.AfterFunc
	_, svc := newProbe()
	conn := dial(t, serve(t, cfg, nil, nil, svc))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	stream, err := conn.NewStream(ctx, &probeDesc.Streams[1], probeEchoMethod)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := stream.SendMsg(wrapperspb.String("m")); err != nil {
			t.Fatal(err)
		}
		out := new(wrapperspb.StringValue)
		if err := stream.RecvMsg(out); err != nil || out.GetValue() != "echo:m" {
			t.Fatalf("message %d: %q, %v", i, out.GetValue(), err)
		}
		// One timer: the server's wait for the next message.
		waitFor(t, func() bool { return timers.armed() == 1 })
	}
	if err := stream.CloseSend(); err != nil {
		t.Fatal(err)
	}
	if err := stream.RecvMsg(new(wrapperspb.StringValue)); err == nil || status.Code(err) != codes.OK && err.Error() != "EOF" {
		t.Errorf("end of the stream: %v, want EOF", err)
	}
	waitFor(t, func() bool { return timers.armed() == 0 })
}

// TestIdleClientThatReadsNothing: a stream whose client reads none of what
// the server sends blocks the server's SendMsg once the flow-control window
// is full; the idle bound ends it too.
func TestIdleClientThatReadsNothing(t *testing.T) {
	timers := newFakeTimers()
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.Deadlines.Idle = time.Minute
	cfg.AfterFunc = timers.AfterFunc
	p, svc := newProbe()
	conn := dial(t, serve(t, cfg, nil, nil, svc))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	stream, err := conn.NewStream(ctx, &probeDesc.Streams[2], probeFloodMethod)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.SendMsg(wrapperspb.String("go")); err != nil {
		t.Fatal(err)
	}
	// Wait for the flood to stall: the window is full, SendMsg waits.
	last := int64(-1)
	waitFor(t, func() bool {
		n := p.flooded.Load()
		stalled := n > 0 && n == last && timers.armed() == 1
		last = n
		return stalled
	})
	timers.fireAll()
	for {
		err = stream.RecvMsg(new(wrapperspb.StringValue))
		if err != nil {
			break
		}
	}
	if status.Code(err) != codes.DeadlineExceeded || !strings.Contains(status.Convert(err).Message(), "idle") {
		t.Errorf("the stream of a client that read nothing ended with %v, want DeadlineExceeded saying it was idle", err)
	}
}

// TestIdleUnaryRequestThatNeverComes: a unary call whose request never
// arrives (headers, then nothing) is ended too; grpc reads the request
// before any interceptor, so only the tap's watch can end it.
func TestIdleUnaryRequestThatNeverComes(t *testing.T) {
	timers := newFakeTimers()
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.Deadlines.Idle = time.Minute
	cfg.AfterFunc = timers.AfterFunc
	p, svc := newProbe()
	conn := dial(t, serve(t, cfg, nil, nil, svc))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// A client stream on the unary method sends its headers and, until it
	// sends a message, nothing else.
	stream, err := conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true}, probeMethod)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return timers.armed() == 1 })
	timers.fireAll()
	if err := stream.RecvMsg(new(wrapperspb.StringValue)); status.Code(err) == codes.OK {
		t.Errorf("a unary call without its request = %v, want it ended", err)
	}
	if p.calls.Load() != 0 {
		t.Error("the handler ran")
	}
}

// syncWriter serialises writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// TestCallsWhoseRequestNeverComesAreCounted: unary calls whose request
// never arrives hold no concurrency slot (grpc reads the request before any
// interceptor), but the tap counts them: a caller may have only
// (1 + QueuedPerSlot) × MaxConcurrent calls admitted, however far each has
// got, so such calls cannot pile up until the idle bound ends them.
func TestCallsWhoseRequestNeverComesAreCounted(t *testing.T) {
	timers := newFakeTimers() // the idle bound never fires
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.Limits = server.Limits{MaxConcurrent: 1}
	cfg.Deadlines.Idle = time.Minute
	cfg.AfterFunc = timers.AfterFunc
	_, svc := newProbe()
	addr := serve(t, cfg, nil, nil, svc)
	conn := dial(t, addr)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	most := 1 + server.QueuedPerSlot
	for range most {
		if _, err := conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true}, probeMethod); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, func() bool { return timers.armed() == most })
	_, err := call(ctx, conn, "hi")
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(status.Convert(err).Message(), "calls admitted") {
		t.Errorf("a call beyond the caller's admitted calls = %v, want ResourceExhausted", err)
	}
	if _, err := call(ctx, dialFrom(t, addr, "127.0.0.2"), "hi"); err != nil {
		t.Errorf("another peer: %v", err)
	}
	timers.fireAll() // the silent calls end; the caller's next call runs
	waitFor(t, func() bool {
		_, err := call(ctx, conn, "again")
		return err == nil
	})
}
