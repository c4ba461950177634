package quote

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/triage-eval/triage/internal/llm"
)

// Phase names a part of a study that calls models.
type Phase string

// The phases a quote covers, in the order a study runs them.
const (
	// Baseline is Phase 0: every solver on every problem.
	Baseline Phase = "phase0_baseline"
	// Planning is Phase 1: one planner call per llm cell.
	Planning Phase = "phase1_planning"
	// Resolve is the budget-aware re-solve of the α = 1 plans' picks.
	Resolve Phase = "budget_aware_resolve"
)

// order ranks the phases for the table.
func (p Phase) order() int {
	return slices.Index([]Phase{Baseline, Planning, Resolve}, p)
}

// Call is one request a run would send.
type Call struct {
	// Phase and Endpoint say where it belongs.
	Phase    Phase
	Endpoint string
	// Request is the rendered call, as the run sends it.
	Request llm.Request
	// Expected is the expected output tokens of one call, when known
	// (HasExpected).
	Expected    int64
	HasExpected bool
	// Provisional marks a call whose prompt is not final yet (a Phase 1
	// pool awaiting Phase 0): counted, never found in the cache.
	Provisional bool
	// Batched marks a call sent through the endpoint's Batch API (batch
	// Phase 0): priced at the batch price (llm.Price.Batched).
	Batched bool
}

// Model is what a quote asks of the client that would send a call: which
// of its calls the cache answers, their output bound, and what the cached
// answers of finished batches no call reported will add to the spend
// record (*llm.Client).
type Model interface {
	CachedAll(ctx context.Context, reqs []llm.Request) ([]bool, error)
	MaxOutput(req llm.Request) int64
	Unreported(ctx context.Context, reqs []llm.Request) (llm.Unreported, error)
}

// Endpoint is a call's endpoint as a quote sees it: its client and its
// price (nil when the endpoints file gives none).
type Endpoint struct {
	Model Model
	Price *llm.Price
}

// Row is one (phase, endpoint) of a quote.
type Row struct {
	Phase    Phase  `json:"phase"`
	Endpoint string `json:"endpoint"`
	// Calls are those still to make; Cached those the response cache
	// answers (no provider call, no cost); Provisional those among Calls
	// whose prompt awaits Phase 0.
	Calls       int64 `json:"calls"`
	Cached      int64 `json:"cached"`
	Provisional int64 `json:"provisional,omitempty"`
	// InputTokens is the estimated prompt tokens of Calls.
	InputTokens int64 `json:"input_tokens"`
	// MaxOutputTokens is Calls × their max_tokens bound; Unbounded says
	// some call has no bound (MaxOutputTokens then counts the others).
	MaxOutputTokens int64 `json:"max_output_tokens"`
	Unbounded       bool  `json:"unbounded,omitempty"`
	// ExpectedOutputTokens is the expected output of Calls, when every one
	// has an expected figure (HasExpected).
	ExpectedOutputTokens int64 `json:"expected_output_tokens"`
	HasExpected          bool  `json:"has_expected"`
	// MaxDollars and ExpectedDollars price the bound and the expectation
	// when the endpoint has a price (nil otherwise, or when unbounded or
	// unknown).
	MaxDollars      *float64 `json:"max_dollars,omitempty"`
	ExpectedDollars *float64 `json:"expected_dollars,omitempty"`
	// Batched says the calls go through the endpoint's Batch API and are
	// priced at its batch price.
	Batched bool `json:"batched,omitempty"`
	// expectedMissing counts calls without an expected figure.
	expectedMissing int64
}

// Quote is a run's quote: a row per (phase, endpoint) in phase and then
// endpoint order, and the notes that qualify it.
type Quote struct {
	Rows  []Row    `json:"rows"`
	Notes []string `json:"notes,omitempty"`
	// Spent is what the run's calls have cost so far, per phase and
	// endpoint (from the run store's spend ledger).
	Spent []Spent `json:"spent,omitempty"`
	// Unrecorded are batched calls the cache answers (counted Cached)
	// whose answers came from finished batches that no call reported, an
	// earlier process having stopped first: the provider was paid, the
	// spend record does not have them yet, and the next batch baseline
	// records them there (where a spend cap counts them). Per phase and
	// endpoint, priced at the batch price.
	Unrecorded []Unrecorded `json:"unrecorded,omitempty"`
}

// Unrecorded is what one (phase, endpoint)'s unreported batch answers add
// to the spend record when they are reported.
type Unrecorded struct {
	Phase    Phase  `json:"phase"`
	Endpoint string `json:"endpoint"`
	// Answers counts them; InputTokens and OutputTokens are their usage
	// as the provider reported it (output: cost c of SPEC §1).
	Answers      int64 `json:"answers"`
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	// Dollars prices them at the endpoint's batch price; nil without one.
	Dollars *float64 `json:"dollars,omitempty"`
}

// Spent is the settled spend of one (phase, endpoint).
type Spent struct {
	Phase        string  `json:"phase"`
	Endpoint     string  `json:"endpoint"`
	Calls        int64   `json:"calls"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	Dollars      float64 `json:"dollars"`
	// Unpriced says the calls were recorded at $0 and their endpoint has no
	// price in the endpoints file: Dollars is 0 for want of one, not
	// because the calls were free. (The spend record keeps dollars, not
	// whether a price was set when a call was made: calls recorded with a
	// price count whatever the file says now.)
	Unpriced bool `json:"unpriced,omitempty"`
}

// key is a (phase, endpoint): a row of a quote.
type key struct {
	phase    Phase
	endpoint string
}

// compare orders keys by phase, in the order a study runs them, then
// endpoint.
func (k key) compare(o key) int {
	return cmp.Or(cmp.Compare(k.phase.order(), o.phase.order()), cmp.Compare(k.endpoint, o.endpoint))
}

// Make adds up calls per (phase, endpoint). endpoint resolves a call's
// endpoint; its error (an unknown endpoint) stops the quote.
func Make(ctx context.Context, calls []Call, endpoint func(name string) (Endpoint, error)) (Quote, error) {
	eps := map[string]Endpoint{}
	for _, c := range calls {
		if _, ok := eps[c.Endpoint]; !ok {
			ep, err := endpoint(c.Endpoint)
			if err != nil {
				return Quote{}, err
			}
			eps[c.Endpoint] = ep
		}
	}
	looked, err := lookUp(ctx, calls, eps)
	if err != nil {
		return Quote{}, err
	}
	unrecorded, err := lookUpUnrecorded(ctx, calls, looked, eps)
	if err != nil {
		return Quote{}, err
	}
	rows := map[key]*Row{}
	for i, c := range calls {
		k := key{c.Phase, c.Endpoint}
		row := rows[k]
		if row == nil {
			row = &Row{Phase: c.Phase, Endpoint: c.Endpoint}
			rows[k] = row
		}
		l := looked[i]
		if l.cached {
			row.Cached++
			continue
		}
		row.Calls++
		row.Batched = row.Batched || c.Batched
		if c.Provisional {
			row.Provisional++
		}
		row.InputTokens += l.input
		if l.bound <= 0 {
			row.Unbounded = true
		}
		row.MaxOutputTokens += max(l.bound, 0)
		if !c.HasExpected {
			row.expectedMissing++
			continue
		}
		expected := c.Expected
		if l.bound > 0 {
			expected = min(expected, l.bound)
		}
		row.ExpectedOutputTokens += expected
	}
	out := Quote{Unrecorded: unrecorded}
	for _, row := range rows {
		row.HasExpected = row.expectedMissing == 0
		if !row.HasExpected {
			row.ExpectedOutputTokens = 0
		}
		if p := eps[row.Endpoint].Price; p != nil {
			if row.Batched {
				batched := p.Batched()
				p = &batched
			}
			if !row.Unbounded {
				d := p.Dollars(row.InputTokens, row.MaxOutputTokens)
				row.MaxDollars = &d
			}
			if row.HasExpected {
				d := p.Dollars(row.InputTokens, row.ExpectedOutputTokens)
				row.ExpectedDollars = &d
			}
		}
		out.Rows = append(out.Rows, *row)
	}
	slices.SortFunc(out.Rows, func(a, b Row) int { return key{a.Phase, a.Endpoint}.compare(key{b.Phase, b.Endpoint}) })
	return out, nil
}

// lookUpUnrecorded asks each (phase, endpoint) of batched calls the cache
// answers what their unreported batch answers will add to the spend
// record, in phase and then endpoint order.
func lookUpUnrecorded(ctx context.Context, calls []Call, looked []looked, eps map[string]Endpoint) ([]Unrecorded, error) {
	reqs := map[key][]llm.Request{}
	for i, c := range calls {
		if c.Batched && looked[i].cached {
			k := key{c.Phase, c.Endpoint}
			reqs[k] = append(reqs[k], c.Request)
		}
	}
	var out []Unrecorded
	for k, rs := range reqs {
		u, err := eps[k.endpoint].Model.Unreported(ctx, rs)
		if err != nil {
			return nil, fmt.Errorf("looking up unreported batch answers of %s: %w", k.endpoint, err)
		}
		if u.Answers == 0 {
			continue
		}
		row := Unrecorded{Phase: k.phase, Endpoint: k.endpoint, Answers: int64(u.Answers), InputTokens: u.PromptTokens, OutputTokens: u.OutputTokens}
		if p := eps[k.endpoint].Price; p != nil {
			d := p.Batched().Dollars(u.PromptTokens, u.OutputTokens)
			row.Dollars = &d
		}
		out = append(out, row)
	}
	slices.SortFunc(out, func(a, b Unrecorded) int { return key{a.Phase, a.Endpoint}.compare(key{b.Phase, b.Endpoint}) })
	return out, nil
}

// looked is what a quote learns of one call from its endpoint's client.
type looked struct {
	cached       bool
	input, bound int64
}

// lookUpChunk bounds the calls of one endpoint looked up at once.
const lookUpChunk = 1000

// lookUp counts every call and looks up those not provisional, a chunk of
// one endpoint's calls at a time (one cache query for many keys), as many
// chunks at once as the process has cores: a study's prompts are hundreds
// of megabytes to hash.
func lookUp(ctx context.Context, calls []Call, eps map[string]Endpoint) ([]looked, error) {
	out := make([]looked, len(calls))
	byEndpoint := map[string][]int{}
	for i, c := range calls {
		out[i].input, out[i].bound = llm.EstimateTokens(c.Request), eps[c.Endpoint].Model.MaxOutput(c.Request)
		if !c.Provisional {
			byEndpoint[c.Endpoint] = append(byEndpoint[c.Endpoint], i)
		}
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, name := range slices.Sorted(maps.Keys(byEndpoint)) {
		all := byEndpoint[name]
		for start := 0; start < len(all); start += lookUpChunk {
			chunk := all[start:min(start+lookUpChunk, len(all))]
			g.Go(func() error {
				reqs := make([]llm.Request, len(chunk))
				for j, i := range chunk {
					reqs[j] = calls[i].Request
				}
				cached, err := eps[name].Model.CachedAll(ctx, reqs)
				if err != nil {
					return fmt.Errorf("looking up calls to %s: %w", name, err)
				}
				for j, i := range chunk {
					out[i].cached = cached[j]
				}
				return nil
			})
		}
	}
	return out, g.Wait()
}
