// Package fakemodel holds what tests write again and again around the fake
// provider of llm/llmtest: reading a recorded chat request (its model,
// messages, thinking switch, the endpoint check's probe), the problem ids
// a planner prompt lists and a plan answer over them, a fake solver that
// answers by problem text, and the endpoints file pointing at the fake.
//
// Replies stay llmtest's (OK, OpenAI, VLLM, …): a test composes them with
// these helpers into the model it needs. Imported by tests only.
package fakemodel
