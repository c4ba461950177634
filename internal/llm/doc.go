// Package llm is the gateway to language models: one Client per Endpoint
// (model identifier + mode, SPEC §1) for every OpenAI-compatible Chat
// Completions API — OpenAI, vLLM, SGLang, Ollama, llama.cpp server,
// DeepSeek, the OpenAI-compatibility endpoints of Gemini and Anthropic,
// Kimi, GLM… It makes the Phase 0 baseline calls (temperature 0, output
// cost with reasoning included) and the Phase 1 planner calls (structured
// JSON output), SPEC §7. It may import platform, store and protocol (the
// cost rule, package costrule).
//
//	c, err := llm.New(llm.Endpoint{
//		Name: "qwen3-8b/extended", BaseURL: "http://gpu:8000/v1",
//		Model: "Qwen/Qwen3-8B", Mode: llm.ModeExtended, Family: llm.FamilyQwen,
//		MaxOutputTokens: 32768,
//	}, llm.WithCache(cache))
//	resp, err := c.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: "user", Content: q}}})
//	// resp.Content, resp.Reasoning, resp.Cost, resp.Truncated, ...
//
// # Request body
//
// The Client builds the request with github.com/sashabaranov/go-openai and
// sends it through its own http.RoundTripper, which patches the JSON body
// go-openai produced. The body always has "model" and "messages", and:
//
//   - "temperature": Endpoint.Temperature, 0 included, unless
//     Endpoint.OmitTemperature.
//   - The output limit (Request.MaxOutputTokens, else
//     Endpoint.MaxOutputTokens; absent when both are 0) in
//     "max_completion_tokens" for FamilyOpenAI (its reasoning models
//     require it, and it counts reasoning tokens) and "max_tokens" for
//     every other family, which is what vLLM, Ollama, llama.cpp, DeepSeek
//     and most compatibility layers read. Endpoint.MaxTokensField
//     overrides the choice.
//   - The mode switch of the family, in the table below.
//   - "response_format": {"type": "json_schema", "json_schema": {"name",
//     "description", "schema", "strict"}} when Request.ResponseFormat is
//     set.
//   - Endpoint.ExtraBody, merged last: objects merge key by key (so
//     {"chat_template_kwargs": {"thinking_budget": 4096}} keeps
//     enable_thinking), other values replace.
//
// The mode switches, standard → extended:
//
//	openai    reasoning_effort: ReasoningEffort if set  →  reasoning_effort: ReasoningEffort (default "medium")
//	qwen      chat_template_kwargs: {enable_thinking: false}  →  chat_template_kwargs: {enable_thinking: true}
//	deepseek  thinking: {type: "disabled"}  →  thinking: {type: "enabled"}
//	glm       thinking: {type: "disabled"}  →  thinking: {type: "enabled"}
//	generic   nothing  →  nothing (the model name or ExtraBody decides)
//
// deepseek is DeepSeek's switch for its hybrid models (V3.1 and later;
// deepseek-reasoner always thinks); Zhipu's GLM 4.5+ API takes the same
// object. qwen's field is read by the chat templates of Qwen3 and similar
// hybrid models served by vLLM or SGLang. For OpenAI's reasoning models in
// standard mode set ReasoningEffort to "none" or "minimal"; for its other
// models leave it empty. With generic, standard and extended send the
// same body (and so share cache entries) unless ExtraBody differs.
//
// The body is sent in canonical JSON form (sorted keys, no white space,
// no HTML escaping). The API key is read at New from the environment
// variable Endpoint.APIKeyEnv names and sent as "Authorization: Bearer";
// it is never logged, stored nor hashed into a cache key.
//
// # Fixes to go-openai v1.43.0
//
// The transport (transport.go) makes up for three defects of go-openai,
// each tested on the bytes that cross the wire:
//
//  1. Its temperature field is omitempty, so temperature 0 is never
//     sent and the provider's default (often 0.6–1.0) applies. The
//     transport sets "temperature" when the body lacks it.
//  2. Its errors drop the response headers, so Retry-After is lost. The
//     transport records the status and Retry-After of every response in
//     a per-attempt holder carried by the request context.
//  3. It has no field for message.reasoning, where vLLM (with a
//     reasoning parser) and Ollama put the thinking; it reads DeepSeek's
//     message.reasoning_content only through its own message decoder. The
//     transport keeps the raw body, from which Response.Reasoning is read
//     with one rule for every provider (reasoning_content when non-empty,
//     else reasoning) and which Response.Raw keeps verbatim.
//
// The patch also carries what go-openai has no field for (thinking,
// extra body) and the token limit, which goes around go-openai's
// client-side validator (it rejects max_tokens for model names it takes
// for OpenAI reasoning models, whatever the server behind BaseURL).
//
// # Response
//
// Response holds choices[0]'s content, reasoning and finish reason
// (Truncated when "length"), the usage as reported, reasoning tokens from
// usage.completion_tokens_details.reasoning_tokens when reported, and the
// SPEC §1 output cost with reasoning included, with the rule that gave it
// (package costrule): max(completion_tokens, total_tokens − prompt_tokens),
// since some providers count thinking in the total but not in
// completion_tokens, except completion_tokens + reasoning_tokens when
// reasoning_tokens exceeds completion_tokens, since others count it in
// neither. A cached response's cost is derived again from its stored usage,
// so entries stored under an earlier rule read with the current one.
//
// # Retries
//
// An attempt is retried when it fails transiently: HTTP 408, 429 or 5xx;
// no complete response within Endpoint.Timeout (the per-attempt timeout,
// also covering a server that accepts the connection and never answers);
// a connection error; or a 2xx body that is not a chat completion
// (invalid JSON or no choices — a proxy that cut the body, a server that
// crashed mid-write). Before retry n the Client waits what Retry-After
// said (seconds or HTTP-date, capped at MaxRetryAfter) or, without it, a
// uniformly random time in [0, min(max, base·2^(n−1))) ("full jitter",
// WithBackoff). Other 4xx fail at once with a *StatusError holding the
// status and the provider's message. After Endpoint.MaxAttempts attempts
// (default 5) the call fails with an *ExhaustedError giving the number of
// attempts and the last cause. The caller's context ends everything at
// once: a wait for a slot, an attempt, or a wait between attempts.
//
// # Probes and descriptions
//
// Probe makes the smallest useful call (ProbePrompt, 16 output tokens,
// never from the cache, within ProbeTimeout) so that a caller learns,
// before any work, what every call would meet: a server that is down, a
// key it refuses, a model it does not serve. Describe says an error to
// whoever configured the endpoint: Reason's status, code or timeout plus
// the provider's own message on one line and, for a connection that
// failed, the system's reason — never the base URL or address. Reason,
// without the provider's message, is for inline endpoints, whose host a
// caller chose.
//
// # Concurrency
//
// A Client keeps at most Endpoint.Concurrency requests in flight; calls
// beyond that wait for a slot (or their context). A slot is held only
// during an attempt, not during the wait before a retry. The default HTTP
// transport keeps Concurrency idle connections per host, so a busy Client
// reuses its connections. A Client made WithDrain sends nothing once its
// drain closes: calls waiting for a slot, or to retry, end with ErrNotSent
// (a context.Canceled), and the requests in flight are answered.
//
// # Cache
//
// WithCache makes the Client content-addressed: the key is the SHA-256 of
// the canonical JSON of the base URL and the exact request body (model,
// messages, temperature, token limit, mode fields, response_format, extra
// body), so any change to what is sent is a different key, and the API
// key, endpoint name, timeout and retry settings are not part of it; a
// repeated sample (Request.Sample j ≥ 2) is, so that it is a call of its
// own, while the first sample keeps the key calls always had. A hit
// returns the stored Response with CacheHit set and its original
// ObtainedAt, Latency and Attempts, without any HTTP request. Only
// successful responses that measure something are stored, truncated ones
// included: at temperature 0 a cut answer is the measurement (SPEC §1
// cost and correctness of that configuration), and re-asking would only
// pay for it again. A response that measures nothing — no usage, or no
// output tokens reported, so no SPEC §1 cost (Response.Measured, the one
// place this is decided) — is returned but never stored, by Complete or
// by Prefill: a provider that leaves usage out would otherwise have its
// unusable answers replayed from the cache after it is fixed, and the next
// identical call asks it again instead. Storing is not part of the call's
// success: when the cache fails to store a fresh response (its database
// briefly unreachable), Complete returns the response with a nil error —
// the provider answered and was paid, and the caller uses the answer — and
// reports the failure through WithCacheStoreFailed (by default a warning
// on log/slog's default logger), so it is neither lost nor silent; only a
// later identical call asks again. A failed lookup, which comes before any
// provider call, is Complete's error. Concurrent identical calls are not coalesced: each misses and
// goes to the server, and the first response stored stays. Without
// WithCache, or with WithCache(nil), there is no caching. OpenCache opens
// the durable SQLite implementation.
//
// Cached and CachedAll say which requests Complete would answer from the
// cache, with no provider call: CachedAll asks a cache that can
// (KeysChecker) about a whole chunk of keys at once, and both compute the
// key without encoding each prompt twice (the body built around short
// stand-ins for the contents, which are hashed in place), the digest
// being exactly the one Complete stores under.
//
// # Batches
//
// Prefill sends requests through the provider's OpenAI Batch API
// (Endpoint.Batch) into the cache, so that Complete then answers them as
// cache hits: batching is a cache prefill, and what a caller gets is the
// synchronous path's Response (Raw verbatim, the same usage and cost)
// with BatchID set, Attempts 1, Latency 0 and ObtainedAt the batch's
// completion. Each input line's custom_id is the request's cache key and
// its body the exact body Complete would send. A batch is stored
// (BatchStore, tables llm_batches and llm_batch_items of the SQL cache)
// as soon as the provider names it and before any wait; a later Prefill
// polls the pending batches holding its requests instead of submitting
// them again. Polls back off exponentially with jitter through the
// Client's clock, sleep and rand; the input is split at OpenAI's limits
// (50,000 requests, 200 MB); output and error files are read line by line
// within bounds. A line that is not a successful chat completion of a
// request of its batch, or whose answer measures nothing, leaves that
// request uncached, and BatchReport says why. Prefill needs the cache (a precondition error without one). Batch
// API POSTs are retried only on a status (429, 5xx), never on a lost
// connection, after which the file or batch may exist.
package llm
