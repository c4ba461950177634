package servertest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// FreeLoopbackAddr returns a loopback address nobody listens on, for a
// server process a test starts (and perhaps restarts) on a known address.
//
// The port is drawn at random from the 12,000 ports below the kernel's
// ephemeral range. A port from listening on ":0" lies inside that range, so
// any outgoing connection on the machine can take it between this check and
// the server's bind (CI saw "address already in use"); a port below the
// range can only be taken by another listener that chose it too.
func FreeLoopbackAddr(t testing.TB) string {
	t.Helper()
	low := ephemeralLow()
	if low < 1024+12000 { // no room below the range: any port will do
		if addr, ok := tryListen(0); ok {
			return addr
		}
		t.Fatal("cannot listen on the loopback")
	}
	for range 100 {
		port := low - 12000 + rand.IntN(12000)
		if addr, ok := tryListen(port); ok {
			return addr
		}
	}
	t.Fatalf("no free loopback port in %d–%d after 100 tries", low-12000, low-1)
	return ""
}

// ephemeralLow is the first port of Linux's ephemeral range, or its
// default, 32768, where the range cannot be read.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	low, err := strconv.Atoi(strings.Fields(string(b) + " x")[0])
	if err != nil {
		return 32768
	}
	return low
}

// tryListen reports whether port is free on the loopback, and its address.
func tryListen(port int) (string, bool) {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return "", false
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String(), true
}
