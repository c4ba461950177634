package quote

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/llm"
)

// fakeModel caches the prompts in cached and bounds output at bound; the
// cached answers of prompts in unreported came from finished batches no
// call reported, each with 100 input and 40 output tokens.
type fakeModel struct {
	cached     map[string]bool
	unreported map[string]bool
	bound      int64
}

func (m fakeModel) Unreported(_ context.Context, reqs []llm.Request) (llm.Unreported, error) {
	var out llm.Unreported
	seen := map[string]bool{}
	for _, r := range reqs {
		prompt := r.Messages[0].Content
		if m.unreported[prompt] && !seen[prompt] { // each request once, as llm.Client
			seen[prompt] = true
			out.Answers++
			out.PromptTokens += 100
			out.OutputTokens += 40
		}
	}
	return out, nil
}

func (m fakeModel) CachedAll(_ context.Context, reqs []llm.Request) ([]bool, error) {
	out := make([]bool, len(reqs))
	for i, r := range reqs {
		out[i] = m.cached[r.Messages[0].Content]
	}
	return out, nil
}

func (m fakeModel) MaxOutput(llm.Request) int64 { return m.bound }

func call(phase Phase, ep, prompt string) Call {
	return Call{Phase: phase, Endpoint: ep, Request: llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt}}}}
}

func expecting(c Call, tokens int64) Call {
	c.Expected, c.HasExpected = tokens, true
	return c
}

func TestMake(t *testing.T) {
	eight := strings.Repeat("x", 8) // 2 + 4 tokens
	priced := Endpoint{Model: fakeModel{cached: map[string]bool{"hit": true}, bound: 1000}, Price: &llm.Price{InputPerMTok: 1, OutputPerMTok: 10}}
	unbounded := Endpoint{Model: fakeModel{}, Price: &llm.Price{InputPerMTok: 1, OutputPerMTok: 10}}
	free := Endpoint{Model: fakeModel{bound: 50}}
	eps := map[string]Endpoint{"priced": priced, "unbounded": unbounded, "free": free}
	f := func(x float64) *float64 { return &x }
	tests := []struct {
		name  string
		calls []Call
		want  []Row
	}{
		{"cached calls cost nothing", []Call{call(Baseline, "priced", eight), call(Baseline, "priced", "hit")}, []Row{
			{Phase: Baseline, Endpoint: "priced", Calls: 1, Cached: 1, InputTokens: 6, MaxOutputTokens: 1000, MaxDollars: f((6 + 10000) / 1e6)},
		}},
		{"batched calls at the batch price", []Call{func() Call { c := call(Baseline, "priced", eight); c.Batched = true; return c }()}, []Row{
			{Phase: Baseline, Endpoint: "priced", Calls: 1, InputTokens: 6, MaxOutputTokens: 1000, MaxDollars: f((6 + 10000) / 2 / 1e6), Batched: true},
		}},
		{"expected capped at the bound", []Call{expecting(call(Planning, "priced", eight), 300), expecting(call(Planning, "priced", eight), 5000)}, []Row{
			{Phase: Planning, Endpoint: "priced", Calls: 2, InputTokens: 12, MaxOutputTokens: 2000, ExpectedOutputTokens: 1300, HasExpected: true,
				MaxDollars: f((12 + 20000) / 1e6), ExpectedDollars: f((12 + 13000) / 1e6)},
		}},
		{"one call without expectation hides it", []Call{expecting(call(Resolve, "free", eight), 30), call(Resolve, "free", eight)}, []Row{
			{Phase: Resolve, Endpoint: "free", Calls: 2, InputTokens: 12, MaxOutputTokens: 100},
		}},
		{"no bound: no upper dollars", []Call{expecting(call(Planning, "unbounded", eight), 10)}, []Row{
			{Phase: Planning, Endpoint: "unbounded", Calls: 1, InputTokens: 6, Unbounded: true, ExpectedOutputTokens: 10, HasExpected: true, ExpectedDollars: f((6 + 100) / 1e6)},
		}},
		{"provisional calls skip the cache", []Call{{Phase: Planning, Endpoint: "priced", Request: call(Planning, "", "hit").Request, Provisional: true}}, []Row{
			{Phase: Planning, Endpoint: "priced", Calls: 1, Provisional: 1, InputTokens: 5, MaxOutputTokens: 1000, MaxDollars: f((5 + 10000) / 1e6)},
		}},
		{"rows in phase then endpoint order", []Call{call(Resolve, "free", "a"), call(Baseline, "priced", "a"), call(Baseline, "free", "a")}, []Row{
			{Phase: Baseline, Endpoint: "free", Calls: 1, InputTokens: 5, MaxOutputTokens: 50},
			{Phase: Baseline, Endpoint: "priced", Calls: 1, InputTokens: 5, MaxOutputTokens: 1000, MaxDollars: f((5 + 10000) / 1e6)},
			{Phase: Resolve, Endpoint: "free", Calls: 1, InputTokens: 5, MaxOutputTokens: 50},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := Make(context.Background(), tt.calls, func(name string) (Endpoint, error) { return eps[name], nil })
			if err != nil {
				t.Fatal(err)
			}
			if len(q.Rows) != len(tt.want) {
				t.Fatalf("rows = %+v, want %+v", q.Rows, tt.want)
			}
			for i, got := range q.Rows {
				want := tt.want[i]
				if !sameDollars(got.MaxDollars, want.MaxDollars) || !sameDollars(got.ExpectedDollars, want.ExpectedDollars) {
					t.Errorf("row %d dollars = %v, %v; want %v, %v", i, deref(got.MaxDollars), deref(got.ExpectedDollars), deref(want.MaxDollars), deref(want.ExpectedDollars))
				}
				got.MaxDollars, got.ExpectedDollars, want.MaxDollars, want.ExpectedDollars = nil, nil, nil, nil
				got.expectedMissing = 0
				if got != want {
					t.Errorf("row %d = %+v, want %+v", i, got, want)
				}
			}
		})
	}
	_, err := Make(context.Background(), []Call{call(Baseline, "gone", "a")}, func(string) (Endpoint, error) { return Endpoint{}, errors.New("unknown endpoint") })
	if err == nil {
		t.Error("an unknown endpoint was quoted")
	}
}

func sameDollars(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	d := *a - *b
	return d < 1e-12 && d > -1e-12
}

func deref(d *float64) any {
	if d == nil {
		return nil
	}
	return *d
}

func TestText(t *testing.T) {
	ten := 10.0
	q := Quote{Rows: []Row{
		{Phase: Baseline, Endpoint: "a", Calls: 3, InputTokens: 30, MaxOutputTokens: 300, MaxDollars: &ten},
		{Phase: Planning, Endpoint: "a", Calls: 1, InputTokens: 9, Unbounded: true, ExpectedOutputTokens: 7, HasExpected: true},
	}, Notes: []string{"something to know"}}
	var buf bytes.Buffer
	if err := Text(&buf, q); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"phase0_baseline", "10.00", "unbounded", "note: something to know"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	total := strings.Fields(strings.Split(strings.TrimSpace(out), "\n")[3])
	if want := []string{"total", "4", "0", "39", "unbounded", "—", "—", "—"}; strings.Join(total, " ") != strings.Join(want, " ") {
		t.Errorf("total line = %q, want %q\n%s", total, want, out)
	}
}

// TestTextSpent: the spend so far is in dollars when the endpoints have a
// price; calls of endpoints without one are said to be unpriced (they
// printed "$0.00", as if free), alone or beside priced ones.
func TestTextSpent(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spent []Spent
		want  string
	}{
		{"priced", []Spent{{Endpoint: "a", Calls: 3, Dollars: 1.5}}, "spent so far: $1.50 over 3 calls (triage report"},
		{"unpriced", []Spent{{Endpoint: "a", Calls: 3, InputTokens: 30, OutputTokens: 60, Unpriced: true}}, "spent so far: 3 calls, 30 input and 60 output tokens, unpriced (their endpoints have no price)"},
		{"both", []Spent{{Endpoint: "a", Calls: 3, Dollars: 1.5}, {Endpoint: "b", Calls: 2, Unpriced: true}}, "spent so far: $1.50 over 5 calls, 2 of them unpriced (their endpoints have no price), counted $0"},
	} {
		var buf bytes.Buffer
		if err := Text(&buf, Quote{Spent: tc.spent}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, buf.String(), tc.want)
		}
	}
}

// TestMakeUnrecorded: batched calls the cache answers from batches no call
// reported are cached in the rows and listed apart, priced at the batch
// price; synchronous cached calls and unpriced endpoints are not priced.
func TestMakeUnrecorded(t *testing.T) {
	model := fakeModel{cached: map[string]bool{"left": true, "left2": true, "done": true}, unreported: map[string]bool{"left": true, "left2": true}, bound: 1000}
	eps := map[string]Endpoint{
		"priced": {Model: model, Price: &llm.Price{InputPerMTok: 1, OutputPerMTok: 10}},
		"free":   {Model: model},
	}
	batched := func(ep, prompt string) Call { c := call(Baseline, ep, prompt); c.Batched = true; return c }
	calls := []Call{
		batched("priced", "left"), batched("priced", "left2"), batched("priced", "done"), batched("priced", "new"),
		call(Baseline, "free", "left"), batched("free", "left"),
	}
	q, err := Make(context.Background(), calls, func(name string) (Endpoint, error) { return eps[name], nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Unrecorded) != 2 {
		t.Fatalf("unrecorded = %+v, want free's and priced's", q.Unrecorded)
	}
	free, priced := q.Unrecorded[0], q.Unrecorded[1]
	if free.Endpoint != "free" || free.Answers != 1 || free.Dollars != nil {
		t.Errorf("free = %+v, want 1 unpriced answer (its synchronous call is no batch's)", free)
	}
	want := (2*100 + 2*40*10) / 2 / 1e6 // the batch price
	if priced.Endpoint != "priced" || priced.Phase != Baseline || priced.Answers != 2 || priced.InputTokens != 200 || priced.OutputTokens != 80 || !sameDollars(priced.Dollars, &want) {
		t.Errorf("priced = %+v (dollars %v), want 2 answers, 200 and 80 tokens, $%v", priced, deref(priced.Dollars), want)
	}
	var buf bytes.Buffer
	if err := Text(&buf, q); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "not yet recorded: phase0_baseline priced: 2 answers") || !strings.Contains(buf.String(), "free: 1 answer of finished batches that no call reported (a process stopped first),\n  100 input and 40 output tokens, unpriced") {
		t.Errorf("text lacks the unrecorded answers:\n%s", buf.String())
	}
}
