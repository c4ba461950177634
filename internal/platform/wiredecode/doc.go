// Package wiredecode decodes the requests that carry a whole pool and plan
// (ScorePlanRequest, and ScorePlansRequest's batch of them) with a few
// allocations per request instead of two or three per pool item and plan
// step, which is what a server spends most of its decoding on.
//
// Unmarshal is an alternative to proto.Unmarshal for an empty message, never
// a different reading of the bytes: when it returns true the message is
// proto.Equal to what proto.Unmarshal makes of the same bytes, and it
// returns false, leaving the message empty, whenever it cannot promise that
// — a message type it does not know, a field or wire type outside the
// common shape (a stored pool, an unknown field, a pool given twice), a
// string that is not UTF-8, malformed bytes — and the caller then decodes
// with proto.Unmarshal, which reports any error. The fields it does not
// decode itself (budgets, regimes, options, unsolvable flags) go through
// proto.Unmarshal too, merged in their wire order. A fuzz test holds it to
// this contract.
//
// The items and steps of a request live in one slice each, and their ids in
// one string, so any one of them kept alive keeps all of that request's
// alive: no larger than the request itself. Nothing decoded refers to the
// bytes decoded, which the caller may reuse at once.
package wiredecode
