package transport

import (
	"net"
	"net/netip"
	"strings"
)

// IsLoopbackHost reports whether host names this machine for certain: an IP
// address in 127.0.0.0/8 or ::1 (brackets allowed), or "localhost". Any other
// name may resolve anywhere and does not count.
func IsLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// IsLoopbackAddr reports whether a dial target ("host:port", optionally
// with a gRPC scheme such as "dns:///host:port" or "passthrough:///…")
// names this machine. "unix:" targets count as loopback.
func IsLoopbackAddr(target string) bool {
	if strings.HasPrefix(target, "unix:") || strings.HasPrefix(target, "unix-abstract:") {
		return true
	}
	if i := strings.Index(target, ":///"); i >= 0 {
		target = target[i+4:]
	} else if i := strings.Index(target, "://"); i >= 0 {
		target = target[i+3:]
		if j := strings.IndexByte(target, '/'); j >= 0 {
			target = target[j+1:]
		}
	}
	host, _, err := net.SplitHostPort(target)
	if err != nil {
		host = target
	}
	return IsLoopbackHost(host)
}

// IsLoopbackListener reports whether a listener's address accepts only
// local connections: a loopback IP. The unspecified address (":50051",
// "0.0.0.0", "::") accepts from anywhere and does not count.
func IsLoopbackListener(addr net.Addr) bool {
	switch a := addr.(type) {
	case *net.TCPAddr:
		return a.IP.IsLoopback()
	case *net.UnixAddr:
		return true
	}
	return false
}
