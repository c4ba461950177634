package server

import (
	"context"
	"testing"

	"google.golang.org/grpc/stats"
)

// taggingHandler is a stats.Handler that marks the contexts it tags.
type taggingHandler struct{ stats.Handler }

type tagKey struct{}

func (taggingHandler) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	return context.WithValue(ctx, tagKey{}, info.FullMethodName)
}

func TestStackGrowingHandlerTagsAsItsHandler(t *testing.T) {
	h := stackGrowingHandler{taggingHandler{}}
	ctx := h.TagRPC(context.Background(), &stats.RPCTagInfo{FullMethodName: "/triage.v1.ScoringService/ScorePlan"})
	if got := ctx.Value(tagKey{}); got != "/triage.v1.ScoringService/ScorePlan" {
		t.Errorf("the handler's tag = %v, want the method", got)
	}
}
