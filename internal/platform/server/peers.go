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
	if _, internal := p.AuthInfo.(internalAuthInfo); internal {
		if fwd := md.Get(forwardedFor); len(fwd) > 0 {
			last := fwd[len(fwd)-1]
			addr = strings.TrimSpace(last[strings.LastIndex(last, ",")+1:])
		}
	}
	return "peer " + ipKey(addr)
}

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
