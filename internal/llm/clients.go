package llm

import (
	"sync"
)

// Clients keeps one gateway client per key, so that an endpoint's
// concurrency limit holds across every request a service serves. It is safe
// for concurrent use.
type Clients struct {
	opts    []Option
	mu      sync.Mutex
	clients map[string]*Client
}

// NewClients returns an empty registry whose clients are built with opts.
func NewClients(opts ...Option) *Clients {
	return &Clients{opts: opts, clients: map[string]*Client{}}
}

// Get returns the client stored under key, creating it from ep on first
// use. Callers choose keys so that distinct endpoint configurations never
// share one.
func (c *Clients) Get(key string, ep Endpoint) (*Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.clients[key]; ok {
		return cl, nil
	}
	cl, err := New(ep, c.opts...)
	if err != nil {
		return nil, err
	}
	c.clients[key] = cl
	return cl, nil
}
