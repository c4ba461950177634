package server_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/triage-eval/triage/internal/platform/server"
)

// BenchmarkStreamMessage measures one message of a bidirectional stream
// sent and echoed over loopback TCP, with and without the idle bound
// (whose RecvMsg and SendMsg each wait in a goroutine of their own).
func BenchmarkStreamMessage(b *testing.B) {
	for _, idle := range []time.Duration{0, time.Minute} {
		b.Run("idle="+idle.String(), func(b *testing.B) {
			cfg := server.DefaultConfig()
			cfg.Drain = 0
			cfg.Deadlines.Idle = idle
			_, svc := newProbe()
			conn := dial(b, serve(b, cfg, nil, nil, svc))
			stream, err := conn.NewStream(context.Background(), &probeDesc.Streams[1], probeEchoMethod)
			if err != nil {
				b.Fatal(err)
			}
			in, out := wrapperspb.String("m"), new(wrapperspb.StringValue)
			b.ReportAllocs()
			for b.Loop() {
				if err := stream.SendMsg(in); err != nil {
					b.Fatal(err)
				}
				if err := stream.RecvMsg(out); err != nil {
					b.Fatal(err)
				}
			}
			stream.CloseSend()
		})
	}
}
