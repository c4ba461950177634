package server_test

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/server"
)

// probe is a hand-written test service: its one unary method echoes,
// panics, blocks, holds, reports its deadline or fails validation depending
// on the request text; its one stream method reports its deadline.
type probe struct {
	started chan struct{} // closed when a "block" call has started
	release chan struct{} // "block" and "hold" calls return when this closes
	calls   atomic.Int64
	holding atomic.Int64 // "hold" calls running
	echoes  atomic.Int64 // Echo streams started
	flooded atomic.Int64 // messages Flood has sent
	long    bool         // LongRunning answers this
}

const (
	probeMethod       = "/triage.test.Probe/Do"
	probeStreamMethod = "/triage.test.Probe/Stream"
)

func (p *probe) do(ctx context.Context, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
	p.calls.Add(1)
	if n, ok := strings.CutPrefix(in.GetValue(), "big:"); ok {
		// "big:N" answers N bytes: repeated, or random with "big:N:random".
		n, random := strings.CutSuffix(n, ":random")
		size, _ := strconv.Atoi(n)
		b := make([]byte, size)
		for i := range b {
			b[i] = 'x'
			if random {
				b[i] = 'a' + byte(rand.IntN(26))
			}
		}
		return wrapperspb.String(string(b)), nil
	}
	switch in.GetValue() {
	case "panic":
		panic("probe asked to panic")
	case "block":
		close(p.started)
		select {
		case <-p.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(30 * time.Second):
		}
	case "hold":
		p.holding.Add(1)
		defer p.holding.Add(-1)
		select {
		case <-p.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	case "deadline":
		return wrapperspb.String(deadlineOf(ctx)), nil
	}
	return wrapperspb.String("echo:" + in.GetValue()), nil
}

// deadlineOf describes ctx's deadline: "none", or its distance rounded up to
// whole seconds ("deadline:120s").
func deadlineOf(ctx context.Context) string {
	d, ok := ctx.Deadline()
	if !ok {
		return "none"
	}
	return "deadline:" + (time.Until(d).Truncate(time.Second) + time.Second).String()
}

// LongRunning marks every method long when p.long is set.
func (p *probe) LongRunning(string) bool { return p.long }

// ValidateRequest rejects the text "invalid".
func (p *probe) ValidateRequest(_ string, req any) error {
	if req.(*wrapperspb.StringValue).GetValue() == "invalid" {
		return apperr.Invalid("value", "must not be %q", "invalid")
	}
	return nil
}

var (
	_ server.RequestValidator = (*probe)(nil)
	_ server.LongRunner       = (*probe)(nil)
)

// echo answers every message of the stream with "echo:" and its text.
func (p *probe) echo(stream grpc.ServerStream) error {
	p.echoes.Add(1)
	for {
		in := new(wrapperspb.StringValue)
		if err := stream.RecvMsg(in); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if err := stream.SendMsg(wrapperspb.String("echo:" + in.GetValue())); err != nil {
			return err
		}
	}
}

const probeEchoMethod = "/triage.test.Probe/Echo"

// flood sends messages of 32 KiB until the stream fails.
func (p *probe) flood(stream grpc.ServerStream) error {
	if err := stream.RecvMsg(new(wrapperspb.StringValue)); err != nil {
		return err
	}
	msg := wrapperspb.String(strings.Repeat("f", 32<<10))
	for {
		if err := stream.SendMsg(msg); err != nil {
			return err
		}
		p.flooded.Add(1)
	}
}

const probeFloodMethod = "/triage.test.Probe/Flood"

var probeDesc = grpc.ServiceDesc{
	ServiceName: "triage.test.Probe",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Do",
		Handler: func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			in := new(wrapperspb.StringValue)
			if err := dec(in); err != nil {
				return nil, err
			}
			handler := func(ctx context.Context, req any) (any, error) {
				return srv.(*probe).do(ctx, req.(*wrapperspb.StringValue))
			}
			if interceptor == nil {
				return handler(ctx, in)
			}
			return interceptor(ctx, in, &grpc.UnaryServerInfo{Server: srv, FullMethod: probeMethod}, handler)
		},
	}},
	Streams: []grpc.StreamDesc{{
		StreamName:    "Stream",
		ServerStreams: true,
		Handler: func(_ any, stream grpc.ServerStream) error {
			in := new(wrapperspb.StringValue)
			if err := stream.RecvMsg(in); err != nil {
				return err
			}
			return stream.SendMsg(wrapperspb.String(deadlineOf(stream.Context())))
		},
	}, {
		StreamName:    "Echo",
		ServerStreams: true,
		ClientStreams: true,
		Handler:       func(srv any, stream grpc.ServerStream) error { return srv.(*probe).echo(stream) },
	}, {
		StreamName:    "Flood",
		ServerStreams: true,
		Handler:       func(srv any, stream grpc.ServerStream) error { return srv.(*probe).flood(stream) },
	}},
}

func newProbe() (*probe, server.Service) {
	p := &probe{started: make(chan struct{}), release: make(chan struct{})}
	return p, server.Service{Name: "probe", Desc: &probeDesc, Impl: p}
}

func call(ctx context.Context, conn *grpc.ClientConn, text string, opts ...grpc.CallOption) (string, error) {
	out := new(wrapperspb.StringValue)
	err := conn.Invoke(ctx, probeMethod, wrapperspb.String(text), out, opts...)
	return out.GetValue(), err
}

// callStream calls the probe's stream method and returns its one reply.
func callStream(ctx context.Context, conn *grpc.ClientConn) (string, error) {
	stream, err := conn.NewStream(ctx, &probeDesc.Streams[0], probeStreamMethod)
	if err != nil {
		return "", err
	}
	if err := stream.SendMsg(wrapperspb.String("")); err != nil {
		return "", err
	}
	if err := stream.CloseSend(); err != nil {
		return "", err
	}
	out := new(wrapperspb.StringValue)
	err = stream.RecvMsg(out)
	return out.GetValue(), err
}
