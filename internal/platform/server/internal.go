package server

import (
	"context"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
)

// internalBufferBytes is the in-memory connections' buffer size.
const internalBufferBytes = 1 << 20

// internalConn is a connection made in memory by this process (DialInternal):
// it never crossed a network, so the server skips the TLS handshake on it.
type internalConn struct{ net.Conn }

// internalListener hands the server the in-memory connections DialInternal
// makes, marked as internalConn.
type internalListener struct{ *bufconn.Listener }

// Accept waits for the next in-memory connection.
func (l internalListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return internalConn{c}, nil
}

// internalAuthInfo describes an in-memory connection: private to the
// process, so as private as a TLS one.
type internalAuthInfo struct{ credentials.CommonAuthInfo }

// AuthType names the transport.
func (internalAuthInfo) AuthType() string { return "in-process" }

// serverCredentials are the configured transport credentials for network
// connections and none for internalConn ones: what arrives over memory was
// made by this process (the HTTP/JSON gateway in front of the server), whose
// own listener applies the TLS and client-certificate checks. Tokens, limits
// and validation still apply to those calls: they are interceptors.
type serverCredentials struct {
	credentials.TransportCredentials
}

// ServerHandshake skips the handshake for in-memory connections.
func (c serverCredentials) ServerHandshake(conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	if _, ok := conn.(internalConn); ok {
		return conn, internalAuthInfo{credentials.CommonAuthInfo{SecurityLevel: credentials.PrivacyAndIntegrity}}, nil
	}
	return c.TransportCredentials.ServerHandshake(conn)
}

// Clone returns a copy that keeps the in-memory exception.
func (c serverCredentials) Clone() credentials.TransportCredentials {
	return serverCredentials{c.TransportCredentials.Clone()}
}

// DialInternal returns a client connection to s over memory, for a front
// end this process runs in front of the server (the HTTP/JSON gateway):
// its calls pass the same interceptors (tokens sent as metadata, limits,
// validation, logging) as calls from the network, skip only the transport
// handshake, and are served as long as Serve runs. Call it before Serve.
func (s *Server) DialInternal(opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	if s.internal == nil {
		s.internal = &internalListener{bufconn.Listen(internalBufferBytes)}
	}
	lis := s.internal
	return grpc.NewClient("passthrough:///internal", append([]grpc.DialOption{
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	}, opts...)...)
}
