package server

import (
	"cmp"
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// sendLimitUnaryInterceptor refuses, inside the interceptor chain, a unary
// response grpc would refuse to send because it is over maxBytes. grpc sends
// a unary response (and checks its size) only after every interceptor has
// returned, so the caller got ResourceExhausted while the log line and the
// call's metrics said OK; failing here gives them the code the caller sees,
// with grpc's own message. It goes innermost in the chain.
func sendLimitUnaryInterceptor(maxBytes int) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if err != nil {
			return resp, err
		}
		m, ok := resp.(proto.Message)
		if !ok {
			return resp, nil
		}
		if n := sentBytes(ctx, m, maxBytes); n > maxBytes {
			how := "ask for less"
			if a, ok := info.Server.(LessAsker); ok {
				how = cmp.Or(a.AskForLess(info.FullMethod), how)
			}
			return nil, tooLarge(n, maxBytes, how)
		}
		return resp, nil
	}
}

// LessAsker is implemented by services whose callers can ask for a smaller
// answer: AskForLess says how, for a unary answer of fullMethod over the
// server's message limit ("" for the server's own words, "ask for less"),
// since a caller retrying the same request would fail again.
type LessAsker interface {
	AskForLess(fullMethod string) string
}

// sendLimitStreamInterceptor refuses, before grpc does, a stream message
// over maxBytes: grpc's own refusal ends the stream (it writes the status),
// while this one returns grpc's error to the handler with the stream still
// open, so that a handler sending many messages (a batch's outcomes) can
// send another in its place. A handler that returns the error ends the
// stream with it, as before.
func sendLimitStreamInterceptor(maxBytes int) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		return handler(srv, sendLimitedStream{ServerStream: ss, maxBytes: maxBytes})
	}
}

// sendLimitedStream is a stream whose SendMsg refuses messages over
// maxBytes without sending them.
type sendLimitedStream struct {
	grpc.ServerStream
	maxBytes int
}

// SendMsg sends m, or refuses it when it is over the limit.
func (s sendLimitedStream) SendMsg(m any) error {
	if pm, ok := m.(proto.Message); ok {
		if n := sentBytes(s.Context(), pm, s.maxBytes); n > s.maxBytes {
			return tooLarge(n, s.maxBytes, "ask for less")
		}
	}
	return s.ServerStream.SendMsg(m)
}

// sentBytes returns the size of m on the wire as grpc checks it: the
// encoded size, or, when the response is compressed (grpc answers in the
// request's compression), the compressed size. Compression is measured only
// when the encoded size is over maxBytes, so calls within the limit cost
// one size computation.
func sentBytes(ctx context.Context, m proto.Message, maxBytes int) int {
	n := proto.Size(m)
	if n <= maxBytes {
		return n
	}
	rc, _ := grpc.ServerTransportStreamFromContext(ctx).(interface{ RecvCompress() string })
	if rc == nil || rc.RecvCompress() == "" || rc.RecvCompress() == encoding.Identity {
		return n
	}
	comp := encoding.GetCompressor(rc.RecvCompress())
	data, err := proto.Marshal(m)
	if comp == nil || err != nil {
		return n
	}
	var counted countingWriter
	w, err := comp.Compress(&counted)
	if err != nil {
		return n
	}
	if _, err := w.Write(data); err != nil {
		return n
	}
	if err := w.Close(); err != nil {
		return n
	}
	return int(counted)
}

// countingWriter counts the bytes written to it.
type countingWriter int64

// Write counts p.
func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// tooLarge is the error of an answer of n bytes over maxBytes: grpc's own
// words, then how to ask for less, since the same request would fail again (its
// pushback trailer says not to retry; over HTTP/JSON it is a 429 all the
// same, as every ResourceExhausted is).
func tooLarge(n, maxBytes int, how string) error {
	return status.Errorf(codes.ResourceExhausted, "grpc: trying to send message larger than max (%d vs. %d): the answer is over this server's --max-message-bytes, and would be again: %s", n, maxBytes, how)
}
