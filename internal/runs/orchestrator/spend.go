package orchestrator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/runs/quote"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// SpendConfig is a config's spend block.
type SpendConfig struct {
	// CapUSD, when set, stops a run (baseline, grid, budget-aware) before
	// the call whose pessimistic cost would take the run's spend past it;
	// the same command resumes once it is raised. Every endpoint a capped
	// run calls needs a price and an output bound (max_output_tokens).
	CapUSD *float64 `yaml:"cap_usd"`
}

// Phase names of the spend ledger: the quote's (package quote decides the
// vocabulary), so that what a quote prices and what a run spent line up.
const (
	SpendBaseline = string(quote.Baseline)
	SpendPlanning = string(quote.Planning)
	SpendResolve  = string(quote.Resolve)
)

// reservationLease is how long a reservation holds budget unless settled:
// longer than any call (attempts × timeouts), short enough that a worker
// that died mid-call does not hold budget for ever.
const reservationLease = 2 * time.Hour

// Ledger records what a run's model calls cost in the run store (SPEC §9)
// and enforces the config's spend cap: before each call the caller
// reserves its pessimistic cost (llm.Endpoint.Pessimistic), atomically
// against what every worker of the run has spent and holds, and settles it
// with the usage the provider reported. A nil *Ledger records nothing and
// caps nothing. It is safe for concurrent use.
type Ledger struct {
	store     runstore.Store
	cap       float64 // +Inf without a cap
	capped    bool
	endpoints map[string]llm.Endpoint
	// judge is the endpoint grading exact answers (baseline.judge_endpoint),
	// "" for none: ReserveJudge holds its calls.
	judge  string
	now    func() time.Time
	file   string
	prefix string
	n      atomic.Int64
}

// NewLedger returns the ledger of cfg's run over store, pricing calls with
// endpoints. With a cap, every endpoint of used must have a price and an
// output bound, or the error lists those that lack one; without one,
// calls on unpriced endpoints are recorded with their tokens at $0.
func NewLedger(cfg *Config, store runstore.Store, endpoints map[string]llm.Endpoint, used []string, now func() time.Time) (*Ledger, error) {
	l := &Ledger{store: store, cap: math.Inf(1), endpoints: endpoints, now: now, file: cfg.File(), judge: cfg.Baseline.JudgeEndpoint}
	if cfg.Spend.CapUSD != nil {
		l.cap, l.capped = *cfg.Spend.CapUSD, true
		var problems []string
		for _, name := range used {
			ep, ok := endpoints[name]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: endpoint %q is not in the endpoints file", cfg.WhereEndpoint(name), name))
				continue
			}
			if ep.Price == nil {
				problems = append(problems, fmt.Sprintf("endpoint %q has no price (\"price\": {\"input_per_mtok\": …, \"output_per_mtok\": …})", name))
			}
			if ep.MaxOutputTokens <= 0 {
				problems = append(problems, fmt.Sprintf("endpoint %q has no max_output_tokens: no call's cost is bounded", name))
			}
		}
		if len(problems) > 0 {
			sort.Strings(problems)
			return nil, fmt.Errorf("spend.cap_usd: the cap cannot be enforced: %s", strings.Join(problems, "; "))
		}
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	l.prefix = hex.EncodeToString(b[:])
	return l, nil
}

// Hold is one call's reservation; without a cap, only what Settle
// records the call under (nothing is held in the store).
type Hold struct {
	id                       string
	phase, endpoint, callKey string
	ep                       llm.Endpoint
	reserved                 bool
}

// Reserve holds the pessimistic cost of req on endpoint for the call
// callKey of phase; a *SpendCapError when it would cross the cap. Without a
// cap nothing is held: the Hold only names the call for Settle.
func (l *Ledger) Reserve(ctx context.Context, phase, endpoint, callKey string, req llm.Request) (*Hold, error) {
	return l.reserve(ctx, phase, endpoint, callKey, req, leaseFor(false))
}

// ReserveBatched is Reserve for a call sent through the endpoint's Batch
// API: its hold lasts as long as a batch may be waited for
// (llm.DefaultBatchMaxWait) and then reservationLease, so that no other
// call takes its room while the provider works on it.
func (l *Ledger) ReserveBatched(ctx context.Context, phase, endpoint, callKey string, req llm.Request) (*Hold, error) {
	return l.reserve(ctx, phase, endpoint, callKey, req, leaseFor(true))
}

// leaseFor is how long a hold lasts: reservationLease, and for a call
// sent through a Batch API (or graded after one) as long as its batch may
// be waited for before.
func leaseFor(batched bool) time.Duration {
	if batched {
		return llm.DefaultBatchMaxWait + reservationLease
	}
	return reservationLease
}

// reserve is Reserve with the hold's lease.
func (l *Ledger) reserve(ctx context.Context, phase, endpoint, callKey string, req llm.Request, lease time.Duration) (*Hold, error) {
	if l == nil {
		return nil, nil
	}
	ep := l.endpoints[endpoint]
	return l.reserveTokens(ctx, phase, endpoint, callKey, llm.EstimateTokens(req), ep.MaxOutput(req), lease)
}

// ReserveJudge holds the pessimistic cost of the grading judge's call on
// the answer to solveReq, the call callKey of phase on solverEndpoint
// (SPEC §9): the judge's prompt with the problem and its reference, plus
// the answer at the solver's output bound (an answer has no more tokens
// than its call's output), and the judge's own output bound. It holds
// nothing, and returns nil, when the run grades without a judge
// (baseline.judge_endpoint) or p's answers never go to one (not an exact
// answer); batched holds for as long as a provider batch may be waited
// for, as ReserveBatched, since the judge grades the batch's answers.
func (l *Ledger) ReserveJudge(ctx context.Context, phase, solverEndpoint, callKey string, p problems.Problem, solveReq llm.Request, batched bool) (*Hold, error) {
	if l == nil || l.judge == "" {
		return nil, nil
	}
	req, ok := solving.JudgeRequest(p)
	if !ok {
		return nil, nil
	}
	answer := l.endpoints[solverEndpoint].MaxOutput(solveReq)
	return l.reserveTokens(ctx, phase, l.judge, judgeCallKey(callKey), llm.EstimateTokens(req)+answer, l.endpoints[l.judge].MaxOutput(req), leaseFor(batched))
}

// judgeCallKey is the call key of the grading judge's call on the answer
// of call callKey: apart from the solver's, so that the spend record
// tells them apart even on one endpoint.
func judgeCallKey(callKey string) string { return "judge|" + callKey }

// SettleJudge settles h, the hold of a grading judge's call
// (ReserveJudge) on the answer of call callKey, with call, what answered
// it: released when no call answered (call nil). A call the run held
// nothing for — a judge the config does not name, which a remote
// Executor serves with — is recorded all the same, at its endpoint's
// price when the endpoints file has one; under a cap it is then a
// *JudgeNotCappedError, which stops the run: the cap could not bound it.
func (l *Ledger) SettleJudge(ctx context.Context, h *Hold, phase, callKey string, call *grading.JudgeCall) error {
	if l == nil {
		return nil
	}
	if call == nil {
		return l.Release(ctx, h)
	}
	if h != nil && h.endpoint == call.Endpoint {
		return l.Settle(ctx, h, call.PromptTokens, call.OutputTokens, call.Cached)
	}
	if err := l.Release(ctx, h); err != nil {
		return err
	}
	unheld := l.newHold(phase, call.Endpoint, judgeCallKey(callKey), false)
	if err := l.Settle(ctx, unheld, call.PromptTokens, call.OutputTokens, call.Cached); err != nil || !l.capped || call.Cached {
		return err
	}
	return &JudgeNotCappedError{Endpoint: call.Endpoint, Named: l.judge, File: l.file}
}

// JudgeNotCappedError says a grading judge the run's config does not
// name answered under a spend cap: the cap held nothing for its calls.
type JudgeNotCappedError struct {
	// Endpoint is the judge that answered; Named the config's
	// baseline.judge_endpoint ("" for none); File the config file.
	Endpoint, Named, File string
}

func (e *JudgeNotCappedError) Error() string {
	named := "names none"
	if e.Named != "" {
		named = fmt.Sprintf("names %q", e.Named)
	}
	return fmt.Sprintf("spend cap: the Executor graded with judge endpoint %q, but baseline.judge_endpoint in %s %s, so the cap held nothing for its calls (this one is recorded); name %q there, with a price and max_output_tokens in the endpoints file, and run the same command again", e.Endpoint, e.File, named, e.Endpoint)
}

// newHold names a call of phase on endpoint; reserved says the store
// holds its pessimistic cost.
func (l *Ledger) newHold(phase, endpoint, callKey string, reserved bool) *Hold {
	return &Hold{id: fmt.Sprintf("%s-%d", l.prefix, l.n.Add(1)), phase: phase, endpoint: endpoint, callKey: callKey, ep: l.endpoints[endpoint], reserved: reserved}
}

// reserveTokens holds the pessimistic cost of a call on endpoint of
// inputTokens (estimated) and at most outputTokens, for lease.
func (l *Ledger) reserveTokens(ctx context.Context, phase, endpoint, callKey string, inputTokens, outputTokens int64, lease time.Duration) (*Hold, error) {
	h := l.newHold(phase, endpoint, callKey, l.capped)
	if !l.capped {
		return h, nil
	}
	var pessimistic float64
	ok := h.ep.Price != nil
	if ok {
		pessimistic, ok = h.ep.Price.Pessimistic(inputTokens, outputTokens)
	}
	if !ok { // NewLedger checks the endpoints its caller said it uses
		return nil, fmt.Errorf("spend.cap_usd: the cap cannot be enforced: endpoint %q has no price or no max_output_tokens", endpoint)
	}
	now := l.now()
	held, spent, err := l.store.Reserve(ctx, runstore.Reservation{ID: h.id, Phase: phase, Endpoint: endpoint, CallKey: callKey, Dollars: pessimistic, Until: now.Add(lease)}, l.cap, now)
	if err != nil {
		return nil, err // the store's error says it was reserving spend
	}
	if !held {
		return nil, &SpendCapError{Cap: l.cap, Spent: spent.Dollars, Reserved: spent.Reserved, Next: pessimistic, Phase: phase, Endpoint: endpoint, File: l.file}
	}
	return h, nil
}

// Settle records what h's call cost: its usage at the endpoint's price. A
// response from the cache cost nothing and leaves no row.
func (l *Ledger) Settle(ctx context.Context, h *Hold, inputTokens, outputTokens int64, cached bool) error {
	if l == nil || h == nil {
		return nil
	}
	if cached {
		return l.Release(ctx, h)
	}
	var dollars float64
	if p := h.ep.Price; p != nil {
		dollars = p.Dollars(inputTokens, outputTokens)
	}
	return l.settle(ctx, h, inputTokens, outputTokens, dollars)
}

// SettleBatched records what h's call cost when a provider batch answered
// it (batch Phase 0, SPEC §9): its usage at the endpoint's batch price
// (llm.Price.Batched). Its hold reserved the synchronous price, more.
func (l *Ledger) SettleBatched(ctx context.Context, h *Hold, inputTokens, outputTokens int64) error {
	if l == nil || h == nil {
		return nil
	}
	var dollars float64
	if p := h.ep.Price; p != nil {
		dollars = p.Batched().Dollars(inputTokens, outputTokens)
	}
	return l.settle(ctx, h, inputTokens, outputTokens, dollars)
}

// settle stores h's call as made, with its tokens and dollars.
func (l *Ledger) settle(ctx context.Context, h *Hold, inputTokens, outputTokens int64, dollars float64) error {
	st := runstore.Settlement{Phase: h.phase, Endpoint: h.endpoint, CallKey: h.callKey, InputTokens: inputTokens, OutputTokens: outputTokens, Dollars: dollars}
	if err := l.store.Settle(context.WithoutCancel(ctx), h.id, st, l.now()); err != nil {
		return err // the store's error says what it was doing
	}
	return nil
}

// Release drops h unsettled: its call was not made, failed without usage,
// or came from the cache.
func (l *Ledger) Release(ctx context.Context, h *Hold) error {
	if l == nil || h == nil || !h.reserved {
		return nil
	}
	if err := l.store.Release(context.WithoutCancel(ctx), h.id); err != nil {
		return err // the store's error says what it was doing
	}
	return nil
}

// Capped reports whether the ledger enforces a cap.
func (l *Ledger) Capped() bool { return l != nil && l.capped }

// SpendCapError says a run stopped before a call that could take its spend
// past the cap.
type SpendCapError struct {
	// Cap is spend.cap_usd; Spent what calls cost so far, Reserved what
	// calls under way hold, Next the pessimistic cost of the call refused.
	Cap, Spent, Reserved, Next float64
	// Phase and Endpoint say which call.
	Phase, Endpoint string
	// File is the config file.
	File string
}

func (e *SpendCapError) Error() string {
	held := ""
	if e.Reserved > 0 {
		held = fmt.Sprintf(" (and $%.4f held by calls under way)", e.Reserved)
	}
	return fmt.Sprintf("spend cap reached: $%.4f spent%s of the $%.2f cap; the next %s call on endpoint %q could cost up to $%.4f. "+
		"Raise spend.cap_usd in %s and run the same command again: what was done is kept",
		e.Spent, held, e.Cap, e.Phase, e.Endpoint, e.Next, e.File)
}

// Final brings a *SpendCapError in err up to date once the command's
// calls have ended: Spent is then what they cost, settled, and nothing is
// held. Other errors pass through.
func (l *Ledger) Final(ctx context.Context, err error) error {
	var capErr *SpendCapError
	if l == nil || !errors.As(err, &capErr) {
		return err
	}
	rows, serr := l.store.Spend(context.WithoutCancel(ctx))
	if serr != nil {
		return err
	}
	capErr.Spent, capErr.Reserved = 0, 0
	for _, r := range rows {
		capErr.Spent += r.Dollars
	}
	return err
}
