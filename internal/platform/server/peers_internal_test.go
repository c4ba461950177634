package server

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
)

func TestIPKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.7:41234":               "192.0.2.7",
		"192.0.2.7":                     "192.0.2.7",
		"[::ffff:192.0.2.7]:80":         "192.0.2.7",
		"[2001:db8:1:2:aaaa::1]:443":    "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::9]:1":      "2001:db8:1:2::/64",
		"[fe80::1%eth0]:22":             "fe80::/64",
		"bufconn":                       "bufconn",
		"2001:db8:1:3::5":               "2001:db8:1:3::/64",
		"[2001:db8:1:2:aaaa::1%x]:1234": "2001:db8:1:2::/64",
	} {
		if got := ipKey(in); got != want {
			t.Errorf("ipKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPeerName(t *testing.T) {
	tcp := &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 5000}
	fwd := metadata.Pairs(forwardedFor, "10.0.0.1, 198.51.100.4")
	internal := internalAuthInfo{credentials.CommonAuthInfo{}}
	for _, tc := range []struct {
		name string
		p    *peer.Peer
		md   metadata.MD
		want string
	}{
		{"network connection", &peer.Peer{Addr: tcp}, nil, "peer 192.0.2.7"},
		{"network connection claiming to forward", &peer.Peer{Addr: tcp}, fwd, "peer 192.0.2.7"},
		{"gateway connection", &peer.Peer{Addr: tcp, AuthInfo: internal}, fwd, "peer 198.51.100.4"},
		{"gateway connection, a client's own header first", &peer.Peer{Addr: tcp, AuthInfo: internal},
			metadata.MD{forwardedFor: {"203.0.113.9", "10.0.0.1, 198.51.100.4"}}, "peer 198.51.100.4"},
		{"no peer", nil, nil, "peer unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.p != nil {
				ctx = peer.NewContext(ctx, tc.p)
			}
			if got := peerName(ctx, tc.md); got != tc.want {
				t.Errorf("peerName = %q, want %q", got, tc.want)
			}
		})
	}
}
