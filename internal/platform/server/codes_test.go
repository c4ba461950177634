package server_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding/gzip"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/telemetry"
)

// rawCodec sends []byte messages as they are, so a test can put any bytes
// on the wire; other messages go through the proto codec.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) {
	if b, ok := v.([]byte); ok {
		return b, nil
	}
	return protoCodec.Marshal(v)
}

func (rawCodec) Unmarshal(data []byte, v any) error { return protoCodec.Unmarshal(data, v) }
func (rawCodec) Name() string                       { return "proto" }

var protoCodec = encodingProto()

// loggedCode returns the code logged for the probe calls, in order.
func loggedCodes(t *testing.T, logs *servertest.LogBuffer) []string {
	t.Helper()
	var out []string
	for _, l := range logs.Records(t) {
		if l["grpc.service"] == "triage.test.Probe" {
			code, _ := l["grpc.code"].(string)
			out = append(out, code)
		}
	}
	return out
}

// TestUnreadableRequestsAreInvalidArgument: bytes that are not a request,
// or a string that is not UTF-8, are the caller's fault. grpc answers
// Internal for them (and, for a unary call, before any interceptor runs, so
// the call was not even logged); they are InvalidArgument, and logged.
func TestUnreadableRequestsAreInvalidArgument(t *testing.T) {
	tests := []struct {
		name string
		raw  []byte
	}{
		{"not the wire format", []byte{0xff, 0xff, 0xff, 0xff}},
		{"truncated", []byte{0x0a, 0x05, 'a'}},
		{"invalid UTF-8", []byte{0x0a, 0x02, 0xff, 0xfe}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs := &servertest.LogBuffer{}
			p, svc := newProbe()
			conn := servertest.Start(t, logs, svc)
			ctx := context.Background()

			err := conn.Invoke(ctx, probeMethod, tt.raw, new(wrapperspb.StringValue), grpc.ForceCodec(rawCodec{}))
			if status.Code(err) != codes.InvalidArgument {
				t.Errorf("unary: %v, want InvalidArgument", err)
			}
			if v := grpcerr.FieldViolations(err); len(v) != 1 || v[0].GetField() != grpcerr.RequestField || !strings.Contains(v[0].GetDescription(), "could not be decoded") {
				t.Errorf("unary: violations %v, want one for the request as a whole", v)
			}
			stream, err := conn.NewStream(ctx, &probeDesc.Streams[1], probeEchoMethod, grpc.ForceCodec(rawCodec{}))
			if err != nil {
				t.Fatal(err)
			}
			if err := stream.SendMsg(tt.raw); err != nil {
				t.Fatal(err)
			}
			if err := stream.RecvMsg(new(wrapperspb.StringValue)); status.Code(err) != codes.InvalidArgument {
				t.Errorf("stream: %v, want InvalidArgument", err)
			}
			if p.calls.Load() != 0 {
				t.Errorf("the handler ran %d times on an unreadable request", p.calls.Load())
			}
			if got := loggedCodes(t, logs); len(got) != 2 || got[0] != "InvalidArgument" || got[1] != "InvalidArgument" {
				t.Errorf("logged codes %v, want InvalidArgument for both calls", got)
			}
		})
	}
	// A readable request still works, on both.
	_, svc := newProbe()
	conn := servertest.Start(t, nil, svc)
	if got, err := call(context.Background(), conn, "ok"); err != nil || got != "echo:ok" {
		t.Errorf("readable call = %q, %v", got, err)
	}
}

// TestOversizeResponseIsLoggedWithItsCode: a response over the size limit
// reaches the caller as ResourceExhausted; the log line says so too (it
// said OK: grpc checks the size after the interceptors). A compressed
// response is measured compressed, as grpc does.
func TestOversizeResponseIsLoggedWithItsCode(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		compress bool
		want     codes.Code
	}{
		{"within the limit", "big:1000", false, codes.OK},
		{"over the limit", "big:4000", false, codes.ResourceExhausted},
		{"over the limit, compressible, compressed", "big:4000", true, codes.OK},
		{"over the limit, incompressible, compressed", "big:4000:random", true, codes.ResourceExhausted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs := &servertest.LogBuffer{}
			_, svc := newProbe()
			cfg := server.DefaultConfig()
			cfg.MaxMessageBytes = 2048
			cfg.Drain = 0
			// The client accepts any size (grpc's default 4 MiB), so what it
			// gets is what the server sent.
			conn := startLogged(t, cfg, logs, svc)
			var opts []grpc.CallOption
			if tt.compress {
				opts = append(opts, grpc.UseCompressor(gzip.Name))
			}
			err := conn.Invoke(context.Background(), probeMethod, wrapperspb.String(tt.text), new(wrapperspb.StringValue), opts...)
			if status.Code(err) != tt.want {
				t.Errorf("caller got %v, want %v", err, tt.want)
			}
			if got := loggedCodes(t, logs); len(got) != 1 || got[0] != tt.want.String() {
				t.Errorf("logged codes %v, want [%v]", got, tt.want)
			}
		})
	}
}

// startLogged serves svc with cfg on loopback TCP until the test ends, logs
// JSON lines to logs, and returns a client with grpc's default options.
func startLogged(t *testing.T, cfg server.Config, logs *servertest.LogBuffer, svc server.Service) *grpc.ClientConn {
	t.Helper()
	srv, err := server.New(cfg, slog.New(telemetry.LogHandler(slog.NewJSONHandler(logs, nil))), telemetry.Disabled(), []server.Service{svc})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(servertest.ServeTCP(t, srv), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}
