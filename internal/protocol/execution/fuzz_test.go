package execution

import (
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// fuzzCase decodes fuzz bytes into a pool and a raw plan. data[0] sets the
// pool size; each item takes 3 bytes (cost, correctness, value); the rest are
// 3-byte plan steps (id selector, allocation). extra is one more id, used in
// the pool and the plan when it is non-empty and new.
func fuzzCase(data []byte, extra string) ([]pool.Item, []Step) {
	if len(data) == 0 {
		return nil, nil
	}
	n := int(data[0] % 40)
	data = data[1:]
	items := make([]pool.Item, 0, n+1)
	for i := 0; i < n && len(data) >= 3; i++ {
		b := data[:3]
		data = data[3:]
		cost := 1 + int64(b[0])*int64(b[1]+1)
		if b[1] == 0xFF {
			cost = math.MaxInt64 - int64(b[0])
		}
		items = append(items, pool.Item{
			ID: "p" + strconv.Itoa(i), Cost: cost,
			Value: 0.5 * float64(1+b[2]>>1&7), Correct: b[2]&1 == 1,
		})
	}
	if extra != "" && (len(extra) < 2 || extra[0] != 'p') {
		items = append(items, pool.Item{ID: extra, Cost: 7, Value: 1, Correct: true})
	}
	var raw []Step
	for len(data) >= 3 {
		b := data[:3]
		data = data[3:]
		var id string
		switch {
		case b[0] == 0xFE:
			id = extra
		case int(b[0]) < 2*len(items):
			id = items[int(b[0])%max(len(items), 1)].ID
		default:
			id = "p" + strconv.Itoa(int(b[0])) // usually unknown
		}
		a := int64(int16(uint16(b[1])<<8 | uint16(b[2])))
		switch b[1] {
		case 0x7F:
			a = math.MaxInt64 - int64(b[2])
		case 0x80:
			a = math.MinInt64 + int64(b[2])
		}
		raw = append(raw, Step{ID: id, Tokens: a})
	}
	return items, raw
}

func FuzzNormalizeAndRun(f *testing.F) {
	f.Add([]byte{3, 10, 1, 1, 20, 2, 0, 5, 0, 3, 0, 0, 20, 1, 0, 30, 2, 0, 5, 0, 0, 0, 0, 10}, int64(100), "")
	f.Add([]byte{0, 1, 2, 3}, int64(0), "x")
	f.Add([]byte{5, 255, 255, 255, 1, 1, 1, 9, 9, 9, 0x80, 0x80, 1, 2, 0x7F, 0, 0xFE, 0, 40}, int64(-5), "weird id")
	f.Add([]byte{39}, int64(math.MaxInt64), "")
	f.Fuzz(func(t *testing.T, data []byte, budget int64, extra string) {
		items, raw := fuzzCase(data, extra)
		p, err := NewPool(items)
		if err != nil {
			t.Fatalf("NewPool: %v", err)
		}
		plan := Normalize(p, raw)
		if len(plan.Steps)+len(plan.Log) != len(raw) {
			t.Fatalf("%d kept + %d dropped != %d raw steps", len(plan.Steps), len(plan.Log), len(raw))
		}
		prev := -1
		var planned int64
		saturated := false
		seen := map[int]bool{}
		for _, d := range plan.Log {
			if d.Index <= prev || d.Index >= len(raw) || raw[d.Index] != (Step{d.ID, d.Tokens}) {
				t.Fatalf("bad log entry %+v", d)
			}
			prev = d.Index
		}
		for _, s := range plan.Steps {
			if s.Tokens <= 0 || seen[s.Index] || p.Item(s.Index).ID != s.ID {
				t.Fatalf("bad step %+v", s)
			}
			seen[s.Index] = true
			if planned > math.MaxInt64-s.Tokens {
				planned, saturated = math.MaxInt64, true
			} else {
				planned += s.Tokens
			}
		}
		if plan.PlannedTokens != planned || plan.OverBudget(budget) != (saturated || planned > budget) {
			t.Fatalf("PlannedTokens %d, OverBudget %v; want %d, saturated %v", plan.PlannedTokens, plan.OverBudget(budget), planned, saturated)
		}

		b := max(budget, 0)
		for _, enforced := range []bool{false, true} {
			run := RunAdvisory
			if enforced {
				run = RunEnforced
			}
			res := run(p, plan, budget)
			if len(res.Trace) != len(plan.Steps) {
				t.Fatalf("trace has %d entries for %d steps", len(res.Trace), len(plan.Steps))
			}
			var deducted int64
			var gains, value float64
			stopped := -1
			for k, e := range res.Trace {
				s, it := plan.Steps[k], p.Item(plan.Steps[k].Index)
				if e.Index != s.Index || e.ID != it.ID || e.Tokens != s.Tokens || e.Cost != it.Cost || e.Correct != it.Correct {
					t.Fatalf("trace[%d] = %+v does not mirror its step", k, e)
				}
				gains += it.Gain()
				switch e.Outcome {
				case Scored, Truncated:
					if stopped >= 0 || (e.Outcome == Truncated) != (enforced && it.Cost > s.Tokens) {
						t.Fatalf("trace[%d] = %+v after stop %d or with a wrong outcome", k, e, stopped)
					}
					if enforced {
						deducted += s.Tokens
					} else {
						deducted += it.Cost
					}
					if e.Outcome == Scored && e.Gain != it.Gain() || e.Outcome == Truncated && e.Gain != 0 {
						t.Fatalf("trace[%d] = %+v: wrong gain", k, e)
					}
				case Stopped:
					if stopped >= 0 || e.Gain != 0 {
						t.Fatalf("trace[%d] = %+v: second stop or gain", k, e)
					}
					stopped = k
				case NotReached:
					if stopped < 0 || e.Gain != 0 {
						t.Fatalf("trace[%d] = %+v: not reached before any stop", k, e)
					}
				default:
					t.Fatalf("trace[%d]: outcome %v", k, e.Outcome)
				}
				value += e.Gain
				if e.Remaining != b-deducted {
					t.Fatalf("trace[%d].Remaining = %d, want %d", k, e.Remaining, b-deducted)
				}
			}
			if res.Stopped != stopped || res.Value != value || res.Value > gains || res.Remaining < 0 || res.Remaining != b-deducted {
				t.Fatalf("result %+v: stopped %d, value %v, Σ gains %v, deducted %d of %d", res, stopped, value, gains, deducted, b)
			}
			if again := run(p, Normalize(p, raw), budget); !reflect.DeepEqual(again, res) {
				t.Fatalf("not deterministic: %+v then %+v", res, again)
			}
		}
	})
}
