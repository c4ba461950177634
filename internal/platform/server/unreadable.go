package server

import (
	"context"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	protoenc "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"

	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/wiredecode"
)

// A request grpc cannot decode is answered Internal, written to the caller
// the moment decoding fails, before any interceptor or handler can say
// otherwise. Yet malformed bytes or a string that is not UTF-8 are the
// caller's fault. So the server's codec does not fail: it resets the message
// and remembers the error, and the server's readers — every unary handler
// (readingUnary) and every stream (readingStreamInterceptor) — ask for it
// right after each read and end the call with grpcerr.Unreadable's
// InvalidArgument, through the interceptor chain, so it is logged like any
// other outcome.

// readingCodec is the proto codec, except that a message it cannot decode is
// reset and its error kept for the reader instead of returned to grpc.
type readingCodec struct {
	base   encoding.CodecV2
	mu     sync.Mutex
	failed map[any]error // by message pointer, until the reader takes it
	// pending is len(failed), so that take, run on every request, locks
	// nothing while no decode has failed. A failure is recorded by the
	// goroutine that then takes it, so that reader always sees it counted.
	pending atomic.Int64
}

func newReadingCodec() *readingCodec {
	return &readingCodec{base: encoding.GetCodecV2(protoenc.Name), failed: map[any]error{}}
}

// Marshal encodes v with the proto codec.
func (c *readingCodec) Marshal(v any) (mem.BufferSlice, error) { return c.base.Marshal(v) }

// Unmarshal decodes data into v; when that fails it resets v, keeps the
// error for take and reports success to grpc.
func (c *readingCodec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return c.base.Unmarshal(data, v)
	}
	err := decode(data, m)
	if err == nil {
		return nil
	}
	proto.Reset(m)
	c.mu.Lock()
	c.failed[v] = err
	c.pending.Add(1)
	c.mu.Unlock()
	return nil
}

// decode decodes data into m as the proto codec does (one contiguous copy of
// data, then proto.Unmarshal), by wiredecode when that knows m.
func decode(data mem.BufferSlice, m proto.Message) error {
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	if wiredecode.Unmarshal(buf.ReadOnlyData(), m) {
		return nil
	}
	return proto.Unmarshal(buf.ReadOnlyData(), m)
}

// Name is the proto codec's name.
func (c *readingCodec) Name() string { return c.base.Name() }

// take returns, and forgets, the error of decoding v; nil if it decoded.
func (c *readingCodec) take(v any) error {
	if c.pending.Load() == 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	err, ok := c.failed[v]
	if !ok {
		return nil
	}
	delete(c.failed, v)
	c.pending.Add(-1)
	return grpcerr.Unreadable(err)
}

// readingUnary returns a copy of desc whose unary handlers check each
// request with codec.take. grpc decodes a unary request inside the handler,
// before any interceptor runs, so an unreadable one is then passed through
// the interceptor chain as the call's outcome.
func readingUnary(desc *grpc.ServiceDesc, codec *readingCodec) *grpc.ServiceDesc {
	out := *desc
	out.Methods = make([]grpc.MethodDesc, len(desc.Methods))
	for i, m := range desc.Methods {
		out.Methods[i] = grpc.MethodDesc{MethodName: m.MethodName, Handler: readingHandler("/"+desc.ServiceName+"/"+m.MethodName, m.Handler, codec)}
	}
	return &out
}

// readingHandler wraps the generated handler h of method fullMethod.
func readingHandler(fullMethod string, h grpc.MethodHandler, codec *readingCodec) grpc.MethodHandler {
	return func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
		var readErr error
		resp, err := h(srv, ctx, func(req any) error {
			if err := dec(req); err != nil {
				return err
			}
			readErr = codec.take(req)
			return readErr
		}, interceptor)
		if readErr == nil || interceptor == nil {
			return resp, err
		}
		// No Server in the info: there is no request for a validator to see.
		return interceptor(ctx, nil, &grpc.UnaryServerInfo{FullMethod: fullMethod}, func(context.Context, any) (any, error) {
			return nil, readErr
		})
	}
}

// readingStreamInterceptor checks every message a stream handler receives
// with codec.take. It goes innermost in the chain.
func readingStreamInterceptor(codec *readingCodec) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		return handler(srv, readingStream{ServerStream: ss, codec: codec})
	}
}

// readingStream is a server stream whose RecvMsg reports unreadable
// messages.
type readingStream struct {
	grpc.ServerStream
	codec *readingCodec
}

// RecvMsg receives the next message, failing with InvalidArgument when it
// could not be decoded.
func (s readingStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return s.codec.take(m)
}
