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
// (llm.WithDispatchNotice).
func withDispatchHeader(ctx context.Context) context.Context {
	return llm.WithDispatchNotice(ctx, func() {
		_ = grpc.SendHeader(ctx, metadata.Pairs(plancall.DispatchedHeader, "1")) // fails only outside a call
	})
}

// announceDispatchHeader sets plancall.AnnouncesDispatchHeader on a
// ListEndpoints answer.
func announceDispatchHeader(ctx context.Context) {
	_ = grpc.SetHeader(ctx, metadata.Pairs(plancall.AnnouncesDispatchHeader, "1")) // fails only outside a call
}
