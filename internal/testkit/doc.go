// Package testkit groups what the tests of every group share: golden files
// with one -update flag (golden), fake-model helpers over llm/llmtest
// (fakemodel), the goroutine-leak check (leakcheck), named steps for
// long end-to-end tests (step) and checks run as an unprivileged user
// (otheruser). Test files of any group may import it; no
// production code may. It may import llm, store, platform, protocol and
// gen.
package testkit
