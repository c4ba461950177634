// Package testkit groups what the tests of every group share: golden files
// with one -update flag (golden), fake-model helpers over llm/llmtest
// (fakemodel) and the goroutine-leak check (leakcheck). Test files of any
// group may import it; no production code may. It may import llm,
// platform, store, protocol and gen.
package testkit
