package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/triage-eval/triage/internal/platform/transport"
)

// dialFlags are the flags of every command that dials a remote service: how
// to reach it securely and which token to present. Built-in clients get
// their credentials here and nowhere else.
type dialFlags struct {
	tls       bool
	files     transport.ClientFiles
	token     string
	tokenFile string
	// tokenFileFlag names the flag tokenFile comes from in errors; ""
	// is --token-file.
	tokenFileFlag string
	readSecret    func(string) ([]byte, error)
	// plaintextToken allows sending the token without TLS to an address
	// that is not loopback: set only by an operator's explicit flag, for a
	// network trusted to carry it (a cluster's, behind NetworkPolicies).
	plaintextToken bool
}

// addDialFlags registers the dial flags on fs.
func addDialFlags(fs *flag.FlagSet) *dialFlags {
	d := &dialFlags{readSecret: os.ReadFile}
	fs.BoolVar(&d.tls, "tls", false, "dial remote services over TLS with the system's CAs (implied by the other --tls-* flags)")
	fs.StringVar(&d.files.CA, "tls-ca", "", "PEM file of the CA(s) remote services' certificates must chain to")
	fs.StringVar(&d.files.Cert, "tls-cert", "", "PEM client certificate, for services that require one (mutual TLS; with --tls-key)")
	fs.StringVar(&d.files.Key, "tls-key", "", "PEM key of --tls-cert")
	fs.StringVar(&d.files.ServerName, "tls-server-name", "", "name to check the services' certificates against (default: the host dialled)")
	fs.StringVar(&d.token, "token", "", "bearer token sent to remote services (prefer TRIAGE_TOKEN or --token-file: arguments are visible to other users)")
	fs.StringVar(&d.tokenFile, "token-file", "", "file holding the bearer token sent to remote services")
	return d
}

// usesTLS reports whether remote services are dialled over TLS.
func (d *dialFlags) usesTLS() bool {
	f := d.files
	return d.tls || f.CA != "" || f.Cert != "" || f.Key != "" || f.ServerName != ""
}

// options returns how to dial the service at addr. A nil d dials plaintext
// without a token. A token is never sent in plaintext to an address that
// is not loopback.
func (d *dialFlags) options(addr string) ([]grpc.DialOption, error) {
	if d == nil {
		return []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, nil
	}
	token, err := d.bearerToken()
	if err != nil {
		return nil, err
	}
	var opts []grpc.DialOption
	if d.usesTLS() {
		cfg, err := transport.ClientConfig(d.files)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUsage, err)
		}
		opts = append(opts, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
	} else {
		if token != "" && !d.plaintextToken && !transport.IsLoopbackAddr(addr) {
			return nil, fmt.Errorf("%w: refusing to send the token in plaintext to %s, which is not loopback: dial it over TLS (--tls-ca FILE, or --tls for the system's CAs)", ErrUsage, addr)
		}
		opts = append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()))
	}
	if token != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(bearerCredentials{token: token, secure: d.usesTLS()}))
	}
	return opts, nil
}

// bearerToken returns the token from --token or --token-file, if any.
func (d *dialFlags) bearerToken() (string, error) {
	switch {
	case d.token != "" && d.tokenFile != "":
		return "", fmt.Errorf("%w: give --token or --token-file, not both", ErrUsage)
	case d.tokenFile != "":
		flag := cmp.Or(d.tokenFileFlag, "--token-file")
		b, err := d.readSecret(d.tokenFile)
		if err != nil {
			return "", fmt.Errorf("%w: %s: %w", ErrUsage, flag, err)
		}
		token := strings.TrimSpace(string(b))
		if token == "" {
			return "", fmt.Errorf("%w: %s: the file is empty", ErrUsage, flag)
		}
		return token, headerSafe(flag, token)
	}
	token := strings.TrimSpace(d.token)
	return token, headerSafe("--token", token)
}

// headerSafe refuses a token that a header cannot carry (a character
// outside printable ASCII, which gRPC would refuse at every call with the
// header's name only) without showing the token.
func headerSafe(flag, token string) error {
	for i := range len(token) {
		if c := token[i]; c < 0x20 || c > 0x7e {
			return fmt.Errorf("%w: %s: the token holds a character no header may carry (a control character or non-ASCII, at byte %d); the token is not shown", ErrUsage, flag, i)
		}
	}
	return nil
}

// bearerCredentials send "authorization: Bearer <token>" with every call.
type bearerCredentials struct {
	token string
	// secure makes gRPC refuse to send the token over a connection without
	// transport security; it is off only for plaintext loopback.
	secure bool
}

// GetRequestMetadata implements credentials.PerRPCCredentials.
func (b bearerCredentials) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + b.token}, nil
}

// RequireTransportSecurity implements credentials.PerRPCCredentials.
func (b bearerCredentials) RequireTransportSecurity() bool { return b.secure }
