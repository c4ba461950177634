package planner

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/planning/plancall"
)

// withDispatchHeader returns the context of a CreatePlan call that sends
// plancall.DispatchedHeader when its model call is dispatched
// (llm.WithDispatchNotice), if the call asked for it
// (plancall.WantDispatchedHeader); ctx itself otherwise.
func withDispatchHeader(ctx context.Context) context.Context {
	if len(metadata.ValueFromIncomingContext(ctx, plancall.WantDispatchedHeader)) == 0 {
		return ctx
	}
	return llm.WithDispatchNotice(ctx, func() {
		_ = grpc.SendHeader(ctx, metadata.Pairs(plancall.DispatchedHeader, "1")) // fails only outside a call
	})
}

// announceDispatchHeader sets plancall.AnnouncesDispatchHeader on a
// ListEndpoints answer.
func announceDispatchHeader(ctx context.Context) {
	_ = grpc.SetHeader(ctx, metadata.Pairs(plancall.AnnouncesDispatchHeader, "1")) // fails only outside a call
}
