package server

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// TestReadingCodecForgetsWhatItReported: the error of a message is reported
// once and then forgotten, so the codec holds nothing after the read.
func TestReadingCodecForgetsWhatItReported(t *testing.T) {
	c := newReadingCodec()
	good, bad := new(wrapperspb.StringValue), new(wrapperspb.StringValue)
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer([]byte{0x0a, 0x01, 'a'})}, good); err != nil || good.GetValue() != "a" {
		t.Fatalf("good message: %v, %v", good, err)
	}
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer([]byte{0x0a, 0x01, 0xff})}, bad); err != nil {
		t.Fatalf("Unmarshal of an unreadable message returned %v to grpc", err)
	}
	if bad.GetValue() != "" {
		t.Errorf("an unreadable message keeps %q: it must be reset", bad.GetValue())
	}
	if err := c.take(good); err != nil {
		t.Errorf("take(good) = %v", err)
	}
	if err := c.take(bad); status.Code(err) != codes.InvalidArgument {
		t.Errorf("take(bad) = %v, want InvalidArgument", err)
	}
	if err := c.take(bad); err != nil || len(c.failed) != 0 {
		t.Errorf("after take: %v, %d kept", err, len(c.failed))
	}
}
