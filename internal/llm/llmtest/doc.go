// Package llmtest is a test fixture: an in-process OpenAI-compatible
// Chat Completions server (net/http/httptest) that answers
// POST /v1/chat/completions with the response shapes and failures of real
// providers, logs every request body byte for byte, and measures how many
// requests it serves at once.
//
// What a request gets is decided, in order, by a scripted list of replies
// (Script), then by a Handler (OK by default); every reply is delayed by
// the server's latency (WithLatency) plus its own Delay. The builders in
// replies.go reproduce the shapes of OpenAI (usage with
// completion_tokens_details.reasoning_tokens), vLLM (message.reasoning),
// DeepSeek (message.reasoning_content), Ollama (minimal usage), a provider
// that counts reasoning tokens outside completion_tokens and total_tokens
// (ReasoningApart), and the failures: 429 with Retry-After, 500, a 401 for
// a wrong API key (WithAPIKey), a 404 for a model it does not serve
// (WithModels), a connection that never answers, a malformed body, and
// finish_reason "length".
//
// It is not a product feature and is imported by tests only.
package llmtest
