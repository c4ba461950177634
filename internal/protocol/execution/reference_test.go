package execution

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// refPlan is the reference normalization of a raw plan: kept pool indices and
// allocations, and the reason of every raw step (0 when kept).
type refPlan struct {
	index   []int
	tokens  []int64
	reasons []DropReason
}

// refNormalize is a direct transcription of SPEC §2 step 3, written without
// looking at Normalize: linear id search, a set of seen ids, negative → 0,
// 0 → dropped.
func refNormalize(items []pool.Item, raw []Step) refPlan {
	var out refPlan
	seen := map[string]bool{}
	for _, s := range raw {
		found := -1
		for i, it := range items {
			if it.ID == s.ID {
				found = i
				break
			}
		}
		var reason DropReason
		switch {
		case found < 0:
			reason = DropUnknownID
		case seen[s.ID]:
			reason = DropDuplicate
		default:
			seen[s.ID] = true
			a := s.Tokens
			if a < 0 {
				a = 0
				reason = DropNegative
			} else if a == 0 {
				reason = DropZero
			}
			if a > 0 {
				out.index = append(out.index, found)
				out.tokens = append(out.tokens, a)
			}
		}
		out.reasons = append(out.reasons, reason)
	}
	return out
}

// refResult is the reference execution of a plan under one regime.
type refResult struct {
	value     float64
	remaining int64
	outcomes  []Outcome
	stopped   int
}

// refRun is a direct transcription of SPEC §3.
func refRun(items []pool.Item, plan refPlan, budget int64, enforced bool) refResult {
	res := refResult{remaining: budget, stopped: -1, outcomes: []Outcome{}}
	if res.remaining < 0 {
		res.remaining = 0
	}
	for k, i := range plan.index {
		if res.stopped >= 0 {
			res.outcomes = append(res.outcomes, NotReached)
			continue
		}
		c, a := items[i].Cost, plan.tokens[k]
		need := c
		if enforced {
			need = a
		}
		if need > res.remaining {
			res.stopped = k
			res.outcomes = append(res.outcomes, Stopped)
			continue
		}
		res.remaining -= need
		if enforced && c > a {
			res.outcomes = append(res.outcomes, Truncated)
			continue
		}
		res.outcomes = append(res.outcomes, Scored)
		if items[i].Correct {
			res.value += items[i].Value
		}
	}
	return res
}

// randomCase draws a pool, a raw plan over it with unknown and repeated ids
// and odd allocations, and a budget.
func randomCase(rng *rand.Rand) ([]pool.Item, []Step, int64) {
	n := rng.IntN(41)
	items := make([]pool.Item, n)
	var total int64
	for i := range items {
		c := 1 + rng.Int64N(2000)
		if rng.IntN(20) == 0 {
			c = 1 + rng.Int64N(math.MaxInt64/64)
		}
		v := []float64{1, 1, 0.5, 2.5, 0.1 + rng.Float64()}[rng.IntN(5)]
		items[i] = pool.Item{ID: "p" + strconv.Itoa(i+1), Cost: c, Value: v, Correct: rng.IntN(3) != 0}
		total += min(c, math.MaxInt64/64)
	}
	raw := make([]Step, rng.IntN(70))
	for k := range raw {
		var id string
		switch {
		case n == 0 || rng.IntN(8) == 0:
			id = "p" + strconv.Itoa(n+1+rng.IntN(5)) // unknown
		default:
			id = items[rng.IntN(n)].ID // may repeat
		}
		var a int64
		switch rng.IntN(10) {
		case 0:
			a = 0
		case 1:
			a = -rng.Int64N(500)
		case 2:
			a = []int64{math.MaxInt64, math.MinInt64, 1}[rng.IntN(3)]
		default:
			a = rng.Int64N(2500)
		}
		raw[k] = Step{ID: id, Tokens: a}
	}
	budget := rng.Int64N(total + 1)
	switch rng.IntN(10) {
	case 0:
		budget = 0
	case 1:
		budget = -rng.Int64N(100)
	case 2:
		budget = math.MaxInt64
	}
	return items, raw, budget
}

// TestAgainstReference compares Normalize, RunAdvisory and RunEnforced with
// the reference on thousands of random pools and plans.
func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(20260101, 7))
	seenOutcomes := map[Outcome]int{}
	seenReasons := map[DropReason]int{}
	for c := range 5000 {
		items, raw, budget := randomCase(rng)
		p := mustPool(t, items...)
		plan := Normalize(p, raw)
		ref := refNormalize(items, raw)

		var gotIndex []int
		var gotTokens []int64
		for _, s := range plan.Steps {
			gotIndex = append(gotIndex, s.Index)
			gotTokens = append(gotTokens, s.Tokens)
		}
		gotReasons := make([]DropReason, len(raw))
		for _, d := range plan.Log {
			gotReasons[d.Index] = d.Reason
			if raw[d.Index].ID != d.ID || raw[d.Index].Tokens != d.Tokens {
				t.Fatalf("case %d: log entry %+v does not match raw step %+v", c, d, raw[d.Index])
			}
		}
		if !slices.Equal(gotIndex, ref.index) || !slices.Equal(gotTokens, ref.tokens) ||
			!slices.Equal(gotReasons, ref.reasons) || len(plan.Steps)+len(plan.Log) != len(raw) {
			t.Fatalf("case %d: Normalize(%v) = %+v; reference %+v", c, raw, plan, ref)
		}

		for _, enforced := range []bool{false, true} {
			var got Result
			if enforced {
				got = RunEnforced(p, plan, budget)
			} else {
				got = RunAdvisory(p, plan, budget)
			}
			want := refRun(items, ref, budget, enforced)
			if got.Value != want.value || got.Remaining != want.remaining || got.Stopped != want.stopped ||
				!slices.Equal(outcomes(got.Trace), want.outcomes) {
				t.Fatalf("case %d (enforced %v, budget %d): got value %v remaining %d stopped %d %v; reference %+v",
					c, enforced, budget, got.Value, got.Remaining, got.Stopped, outcomes(got.Trace), want)
			}
			checkTrace(t, p, plan, got)
			regime := Advisory
			if enforced {
				regime = Enforced
			}
			if fast := Execute(p, plan, budget, regime); fast.Value != got.Value || fast.Remaining != got.Remaining ||
				fast.Stopped != got.Stopped || fast.Trace != nil {
				t.Fatalf("case %d (enforced %v): Execute = %+v, traced run = value %v remaining %d stopped %d",
					c, enforced, fast, got.Value, got.Remaining, got.Stopped)
			}
			for _, o := range want.outcomes {
				seenOutcomes[o]++
			}
		}
		for _, d := range plan.Log {
			seenReasons[d.Reason]++
		}
	}
	// The random cases must exercise every rule.
	for o := Scored; o <= NotReached; o++ {
		if seenOutcomes[o] < 100 {
			t.Errorf("outcome %v seen %d times", o, seenOutcomes[o])
		}
	}
	for r := DropUnknownID; r <= DropZero; r++ {
		if seenReasons[r] < 100 {
			t.Errorf("drop reason %v seen %d times", r, seenReasons[r])
		}
	}
	t.Logf("outcomes %v, drops %v", seenOutcomes, seenReasons)
}
