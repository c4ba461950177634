// Package quote states what a run will cost before it makes a model call
// (SPEC §9): per phase and endpoint, the calls still to make after the
// response cache and resume, their input tokens (llm.EstimateTokens of the
// rendered prompts), the output tokens their max_tokens bound allows, an
// expected output figure from Phase 0 costs, and dollars where the endpoint
// has a price (llm.Price).
//
// It owns the arithmetic and the tables, nothing else: the calls come from
// the code that makes them (orchestrator.PendingBaseline,
// Runner.PendingPlans, budgetaware.PendingResolves, rendered by
// solving.Request and plancall) and the cache lookups from the clients
// that would send them (llm.Client.CachedAll, a chunk of an endpoint's
// calls at a time, on every core). It imports no service and no store.
package quote
