package server_test

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/server"
)

// probe is a hand-written test service: its one method echoes, panics,
// blocks or fails validation depending on the request text.
type probe struct {
	started chan struct{} // closed when a "block" call has started
	release chan struct{} // a "block" call returns when this closes
	calls   int
}

const probeMethod = "/triage.test.Probe/Do"

func (p *probe) do(ctx context.Context, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
	p.calls++
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
	}
	return wrapperspb.String("echo:" + in.GetValue()), nil
}

// ValidateRequest rejects the text "invalid".
func (p *probe) ValidateRequest(_ string, req any) error {
	if req.(*wrapperspb.StringValue).GetValue() == "invalid" {
		return apperr.Invalid("value", "must not be %q", "invalid")
	}
	return nil
}

var _ server.RequestValidator = (*probe)(nil)

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
}

func newProbe() (*probe, server.Service) {
	p := &probe{started: make(chan struct{}), release: make(chan struct{})}
	return p, server.Service{Name: "probe", Desc: &probeDesc, Impl: p}
}

func call(ctx context.Context, conn *grpc.ClientConn, text string) (string, error) {
	out := new(wrapperspb.StringValue)
	err := conn.Invoke(ctx, probeMethod, wrapperspb.String(text), out)
	return out.GetValue(), err
}
