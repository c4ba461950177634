package scoring_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/scoring"
)

// countingOracle counts the calls that reach the Oracle.
type countingOracle struct {
	scoring.Oracle
	calls atomic.Int32
}

func (c *countingOracle) ComputeReferences(ctx context.Context, req *triagev1.ComputeReferencesRequest) (*triagev1.ComputeReferencesResponse, error) {
	c.calls.Add(1)
	return c.Oracle.ComputeReferences(ctx, req)
}

func TestReferencesAreCached(t *testing.T) {
	orc := &countingOracle{Oracle: scoring.LocalOracle(oracle.NewService())}
	svc := scoring.New(scoring.LocalExecutor(executor.New(nil, time.Now)), orc, scoring.Options{CacheEntries: 2})
	ctx := context.Background()
	score := func(req *triagev1.ScorePlanRequest) *triagev1.ScorePlanResponse {
		t.Helper()
		resp, err := svc.ScorePlan(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	a := request30(1)
	first := score(a)
	if len(first.GetScores()[0].GetOracle().GetPlan()) != 0 {
		t.Fatal("oracle plan returned without include_oracle_plan")
	}
	// Another plan on the same pool: the references come from the cache,
	// whole (the first response's copy left the plan out, not the cache's).
	b := request30(1)
	b.Plan = b.Plan[:3]
	b.Options.IncludeOraclePlan = true
	second := score(b)
	if n := orc.calls.Load(); n != 1 {
		t.Errorf("%d oracle calls for two plans on one pool, want 1", n)
	}
	if len(second.GetScores()[0].GetOracle().GetPlan()) == 0 || second.GetScores()[0].GetOracle().GetValue() != first.GetScores()[0].GetOracle().GetValue() {
		t.Errorf("cached oracle %v, first %v", second.GetScores()[0].GetOracle(), first.GetScores()[0].GetOracle())
	}
	// What the references depend on is in the key: a different seed, value
	// or budget is a miss.
	c := request30(1)
	c.Options.Random.Seed = 2
	d := request30(1)
	d.GetInline().Items[4].Value = proto.Float64(2)
	e := request30(1)
	e.Budgets[0] = tokens(1000)
	for _, r := range []*triagev1.ScorePlanRequest{c, d, e} {
		score(r)
	}
	if n := orc.calls.Load(); n != 4 {
		t.Errorf("%d oracle calls, want 4", n)
	}
	// Two entries: a, the least recently used, is out.
	score(a)
	if n := orc.calls.Load(); n != 5 {
		t.Errorf("%d oracle calls after an eviction, want 5", n)
	}
}

// TestLargePoolsAreNotCached checks that references whose key is over the
// cache's bound are computed every time, and that a lookup that gave up on
// a large key leaves none of it behind for the next one.
func TestLargePoolsAreNotCached(t *testing.T) {
	orc := &countingOracle{Oracle: scoring.LocalOracle(oracle.NewService())}
	svc := scoring.New(scoring.LocalExecutor(executor.New(nil, time.Now)), orc, scoring.Options{CacheEntries: 2})
	large := request30(1)
	var items []*triagev1.GroundTruthItem
	large.Plan = nil
	for i := range 80 {
		id := fmt.Sprintf("%0250d", i) // 80 × 250 bytes: within the request limits, over the cache's 16 KiB
		items = append(items, item(id, 100, i%2 == 0))
		large.Plan = append(large.Plan, &triagev1.PlanStep{Id: id, Tokens: 100})
	}
	large.Pool = inline(items...)
	for _, req := range []*triagev1.ScorePlanRequest{large, large, request30(1), request30(1)} {
		if _, err := svc.ScorePlan(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	if n := orc.calls.Load(); n != 3 {
		t.Errorf("%d oracle calls, want 3 (the large pool twice, the small one once)", n)
	}
}
