package plancall

// DispatchedHeader is the header metadata a CreatePlan call of the llm
// strategy that asked for it (WantDispatchedHeader) sends as soon as its
// model call is dispatched — it has its endpoint's concurrency slot and
// goes to the provider — long before the answer. Until then the call is
// queued, or answered from the cache, and withdrawing it costs nothing: a
// draining run withdraws the calls whose header has not come, on a
// Planner that announces the header (AnnouncesDispatchHeader). Headers
// commit a call (gRFC A6: gRPC retries it no more), so only a caller that
// asks gets them early; other calls send their headers with the answer.
const DispatchedHeader = "triage-dispatched"

// WantDispatchedHeader is the request metadata by which a CreatePlan call
// asks for DispatchedHeader.
const WantDispatchedHeader = "triage-want-dispatched"

// AnnouncesDispatchHeader is the header metadata of a ListEndpoints answer
// by which the Planner says that its CreatePlan calls send
// DispatchedHeader. A Planner of an older build sends its headers with the
// answer, and its caller cannot tell a queued call from a dispatched one.
const AnnouncesDispatchHeader = "triage-announces-dispatched"
