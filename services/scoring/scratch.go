package scoring

import (
	"sync"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/pool"
)

// maxScratchItems bounds the slices a scratch keeps between calls: a
// larger pool's are left to the garbage collector.
const maxScratchItems = 1024

// scratch holds what assemble converts a request's pool and normalized plan
// into for planscore. Neither outlives the call (nothing of planscore's
// results refers to them), so the slices are reused across calls.
type scratch struct {
	items []pool.Item
	plan  []execution.Step
}

// scratchPool reuses scratches across calls; its zero value is ready.
type scratchPool struct{ p sync.Pool }

// get returns a scratch holding items and plan converted.
func (sp *scratchPool) get(items []*triagev1.GroundTruthItem, plan []*triagev1.PlanStep) *scratch {
	sc, _ := sp.p.Get().(*scratch)
	if sc == nil {
		sc = new(scratch)
	}
	sc.items = protoconv.AppendPoolItems(sc.items[:0], items)
	sc.plan = protoconv.AppendSteps(sc.plan[:0], plan)
	return sc
}

// put returns sc for reuse, its strings cleared (they belong to the
// request's messages).
func (sp *scratchPool) put(sc *scratch) {
	if cap(sc.items) > maxScratchItems || cap(sc.plan) > maxScratchItems {
		return
	}
	clear(sc.items)
	clear(sc.plan)
	sp.p.Put(sc)
}
