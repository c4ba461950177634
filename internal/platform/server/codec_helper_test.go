package server_test

import (
	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registers the proto codec
)

func encodingProto() encoding.Codec { return encoding.GetCodec("proto") }
