package pgtest

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// Proxy forwards connections to the test server until it is cut: then it
// drops every connection it carries and closes every new one at once, as a
// server that went away would, until it is restored.
type Proxy struct {
	lis    net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]bool
}

// Proxied returns a fresh schema's location (see Location) reached through
// a Proxy the test can cut, and the proxy. It skips tb as Location does.
func Proxied(tb testing.TB) (string, *Proxy) {
	tb.Helper()
	u, err := url.Parse(Location(tb))
	if err != nil {
		tb.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p := &Proxy{lis: lis, target: u.Host, conns: map[net.Conn]bool{}}
	go p.serve()
	tb.Cleanup(func() {
		drop(lis)
		p.Cut()
	})
	u.Host = lis.Addr().String()
	return u.String(), p
}

func (p *Proxy) serve() {
	for {
		c, err := p.lis.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.cut {
			p.mu.Unlock()
			drop(c)
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			p.mu.Unlock()
			drop(c)
			continue
		}
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		go pipe(c, up)
		go pipe(up, c)
	}
}

// pipe copies src to dst until either ends, then closes both.
func pipe(dst, src net.Conn) {
	_, _ = io.Copy(dst, src)
	drop(dst)
	drop(src)
}

// drop closes what the proxy cuts off; like a server that went away, it
// does not care how that ends.
func drop(c io.Closer) {
	_ = c.Close()
}

// Cut drops every connection and refuses new ones.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for c := range p.conns {
		drop(c)
		delete(p.conns, c)
	}
}

// Restore forwards new connections again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = false
}
