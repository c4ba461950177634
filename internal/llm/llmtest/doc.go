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
// It also serves the OpenAI Batch API (batch.go): POST /v1/files (a
// multipart upload, purpose "batch", every line a JSON object, else 400
// naming the line), POST /v1/batches, GET /v1/batches/{id} (404 for an
// unknown id) and GET /v1/files/{id}/content. A batch moves through
// validating, in_progress and finalizing by the server's clock
// (WithClock, WithBatch) and ends completed, expired, cancelled or failed;
// validation errors (duplicate custom_id, wrong method or url) fail it
// with errors.data naming the line. Each line is answered by the same
// script and handler as a synchronous request, so a batched request and a
// synchronous one get the same body; 200 answers go to the output file,
// others (and lines an expired or cancelled batch did not run) to the
// error file. The shapes follow the OpenAI API reference as published in
// its generated clients: the Batch object with request_counts,
// output_file_id, error_file_id and errors (openai-python
// src/openai/types/batch.py; LangChain's OpenAIClient.Batches.Batch), the
// File object, and the output line {id, custom_id, response: {status_code,
// request_id, body}, error} (OpenAI's batch guide, "Retrieving the
// results").
//
// It is not a product feature and is imported by tests only.
package llmtest
