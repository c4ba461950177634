// Package wiredecode decodes the requests that carry a whole pool and plan
// — ScorePlanRequest, ScorePlansRequest's batch of them, ExecutePlanRequest
// and ComputeReferencesRequest — with a few allocations per request instead
// of two or three per pool item and plan step, which is what a server spent
// most of its decoding on.
//
// Unmarshal is an alternative to proto.Unmarshal for an empty message, never
// a different reading of the bytes: when it returns true the message is
// proto.Equal to what proto.Unmarshal makes of the same bytes, and it
// returns false, leaving the message empty, whenever it cannot promise that
// — a message type it does not know, a stored pool, a pool given twice, a
// field or wire type inside an item, a step, the pool or the batch that is
// not theirs, a string that is not UTF-8, malformed bytes — and the caller
// then decodes with proto.Unmarshal, which reports any error. The request's
// other fields (budgets, regimes, options, unsolvable flags, and fields
// unknown to this build, kept as unknown fields) go through proto.Unmarshal
// too, merged in their wire order. A fuzz test holds it to this contract.
//
// A request's items live in one slice and its steps in another; the ids
// the items keep share one string, and the steps' another. So a reference
// kept to one item's id (a cache of references keeps the oracle plan's)
// keeps the items' ids alive, no more than the pool's own ids: an id given
// twice in one item is copied once, the last, as proto keeps it. Nothing
// decoded refers to the bytes decoded, which the caller may reuse at once.
package wiredecode
