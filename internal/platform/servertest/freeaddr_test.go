package servertest

import (
	"net"
	"strconv"
	"testing"
)

func TestFreeLoopbackAddrIsBelowTheEphemeralRange(t *testing.T) {
	low := ephemeralLow()
	for range 20 {
		addr := FreeLoopbackAddr(t)
		host, p, err := net.SplitHostPort(addr)
		if err != nil {
			t.Fatal(err)
		}
		port, _ := strconv.Atoi(p)
		if host != "127.0.0.1" || (low >= 1024+12000 && (port < low-12000 || port >= low)) {
			t.Fatalf("FreeLoopbackAddr = %s, want 127.0.0.1 with a port in [%d, %d)", addr, low-12000, low)
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatalf("the address is not free: %v", err)
		}
		l.Close()
	}
}
