package llm

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// testAPIKey is the secret the fake environment holds.
const testAPIKey = "sk-test-SECRET-0123456789"

// testNow is the fixed clock of the tests.
var testNow = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

// sleeps records the waits between attempts instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// testEndpoint is a generic standard endpoint on srv.
func testEndpoint(srv *llmtest.Server) Endpoint {
	return Endpoint{
		Name:      "test",
		BaseURL:   srv.URL(),
		APIKeyEnv: "TEST_API_KEY",
		Model:     "test-model",
		Mode:      ModeStandard,
		Timeout:   5 * time.Second,
	}
}

// testOptions are deterministic dependencies: fixed clock, recorded
// sleeps, jitter 0.5, a fake environment holding testAPIKey.
func testOptions(s *sleeps) []Option {
	return []Option{
		WithClock(func() time.Time { return testNow }),
		WithSleep(s.sleep),
		WithRand(func() float64 { return 0.5 }),
		WithGetenv(func(k string) string {
			if k == "TEST_API_KEY" {
				return testAPIKey
			}
			return ""
		}),
	}
}

// newTestClient returns a client for ep with testOptions plus opts.
func newTestClient(t *testing.T, ep Endpoint, s *sleeps, opts ...Option) *Client {
	t.Helper()
	c, err := New(ep, append(testOptions(s), opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// userRequest is a one-turn request.
func userRequest(text string) Request {
	return Request{Messages: []Message{{Role: RoleUser, Content: text}}}
}
