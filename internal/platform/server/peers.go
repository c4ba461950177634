package server

import (
	"context"
	"net"
	"net/netip"
	"strings"

	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
)

// forwardedFor is the metadata key in which the HTTP/JSON gateway
// (grpc-gateway) passes the HTTP client's address: any X-Forwarded-For the
// client sent, then, last, the address of the HTTP connection itself.
const forwardedFor = "x-forwarded-for"

// ipv6Prefix is how much of an IPv6 address names a peer: a host is
// usually given a whole /64, so a caller counted per address could spread
// its calls over as many callers as it likes.
const ipv6Prefix = 64

// peerName names the caller of a call on a server without tokens, so that
// limits count per peer and one local process cannot take everyone's
// slots: "peer " and the IP address of the connection (an IPv6 one by its
// /64 network). On an in-process connection made by DialInternal (the
// HTTP/JSON gateway), the peer is the HTTP client: the last address of the
// x-forwarded-for metadata, which grpc-gateway appends from the HTTP
// connection (what the client itself sent comes before it). Only that
// connection is trusted with the metadata: on any other, it is the client's
// to write.
func peerName(ctx context.Context, md metadata.MD) string {
	p, ok := peer.FromContext(ctx)
	if !ok || p.Addr == nil {
		return "peer unknown"
	}
	addr := p.Addr.String()
	if fwd, ok := forwardedClient(p, md); ok {
		addr = fwd
	}
	return "peer " + ipKey(addr)
}

// forwardedClient returns, for a call on an in-process connection made by
// DialInternal (the HTTP/JSON gateway), the HTTP client's address: the last
// address of md's x-forwarded-for, which the gateway wrote. ok is false on
// any other connection, whose metadata is the client's to write.
func forwardedClient(p *peer.Peer, md metadata.MD) (addr string, ok bool) {
	if _, internal := p.AuthInfo.(internalAuthInfo); !internal {
		return "", false
	}
	fwd := md.Get(forwardedFor)
	if len(fwd) == 0 {
		return "", false
	}
	last := fwd[len(fwd)-1]
	return strings.TrimSpace(last[strings.LastIndex(last, ",")+1:]), true
}

// withHTTPClientPeer returns ctx whose peer, for a call the HTTP/JSON
// gateway forwards (forwardedClient), is the HTTP client rather than the
// in-memory connection, so that the call's log line and span name the
// client ("peer.address", not "bufconn"); the peer's AuthInfo stays, so the
// call is still known to come from the gateway; viaHTTP says it was
// replaced. Other calls' ctx is returned as it is.
func withHTTPClientPeer(ctx context.Context, md metadata.MD) (_ context.Context, viaHTTP bool) {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return ctx, false
	}
	addr, ok := forwardedClient(p, md)
	if !ok {
		return ctx, false
	}
	client := *p
	client.Addr = clientAddr(addr)
	return peer.NewContext(ctx, &client), true
}

// clientAddr is an HTTP client's address as the gateway forwarded it.
type clientAddr string

// Network is the HTTP connection's network.
func (clientAddr) Network() string { return "tcp" }

// String is the address, "host:port".
func (a clientAddr) String() string { return string(a) }

// ipKey returns the IP of addr ("host:port" or a bare address) as a peer
// is counted, or addr itself when it holds no IP (an in-memory address).
func ipKey(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		prefix, _ := ip.Prefix(ipv6Prefix)
		return prefix.String()
	}
	return ip.String()
}
