package server

import (
	"context"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// stamper sets the version stamp (SPEC §10) of every response message that
// has a field for it: a field named "version" of type triage.v1.VersionStamp.
// It is the one place responses are stamped, so a service never fills the
// field itself, and a new response message gets its stamp by declaring the
// field. One stamp message is shared by every response: it is never
// changed once the server is built.
type stamper struct {
	stamp protoreflect.Value
	// fields caches, per response message type, its version field (nil for
	// a message without one).
	fields sync.Map // protoreflect.FullName → protoreflect.FieldDescriptor
}

// newStamper stamps responses with s.
func newStamper(s *triagev1.VersionStamp) *stamper {
	return &stamper{stamp: protoreflect.ValueOfMessage(s.ProtoReflect())}
}

// stampName is the full name of the stamp message.
var stampName = (&triagev1.VersionStamp{}).ProtoReflect().Descriptor().FullName()

// set stamps msg unless it has no version field or already has a stamp
// (a response relayed from another server keeps its own).
func (s *stamper) set(msg any) {
	m, ok := msg.(proto.Message)
	if !ok {
		return
	}
	r := m.ProtoReflect()
	if !r.IsValid() {
		return // a nil message
	}
	fd := s.field(r.Descriptor())
	if fd != nil && !r.Has(fd) {
		r.Set(fd, s.stamp)
	}
}

// field returns md's version field, or nil.
func (s *stamper) field(md protoreflect.MessageDescriptor) protoreflect.FieldDescriptor {
	if f, ok := s.fields.Load(md.FullName()); ok {
		fd, _ := f.(protoreflect.FieldDescriptor)
		return fd
	}
	var out protoreflect.FieldDescriptor
	if fd := md.Fields().ByName("version"); fd != nil && fd.Message() != nil && fd.Message().FullName() == stampName && !fd.IsList() {
		out = fd
	}
	s.fields.Store(md.FullName(), out)
	return out
}

// unary stamps the response of a unary call.
func (s *stamper) unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	if err == nil {
		s.set(resp)
	}
	return resp, err
}

// stream stamps every message a stream sends.
func (s *stamper) stream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return handler(srv, stampedStream{ServerStream: ss, stamper: s})
}

// stampedStream stamps the messages it sends.
type stampedStream struct {
	grpc.ServerStream
	stamper *stamper
}

// SendMsg stamps m and sends it.
func (s stampedStream) SendMsg(m any) error {
	s.stamper.set(m)
	return s.ServerStream.SendMsg(m)
}
