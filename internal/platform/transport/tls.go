package transport

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"time"
)

// MinVersion is the oldest TLS version servers and clients accept.
const MinVersion = tls.VersionTLS12

// ServerFiles names the PEM files of a server's TLS setup.
type ServerFiles struct {
	// Cert and Key are the server's certificate chain and private key.
	Cert, Key string
	// ClientCA, when set, holds the CA certificates client certificates
	// must chain to; clients without one are refused.
	ClientCA string
}

// ServerConfig loads files into a server TLS configuration.
func ServerConfig(files ServerFiles) (*tls.Config, error) {
	if files.Cert == "" || files.Key == "" {
		return nil, errors.New("a TLS server needs both a certificate and a key")
	}
	cert, err := tls.LoadX509KeyPair(files.Cert, files.Key)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate %s / key %s: %w", files.Cert, files.Key, err)
	}
	cfg := &tls.Config{MinVersion: MinVersion, Certificates: []tls.Certificate{cert}}
	if files.ClientCA != "" {
		pool, err := loadPool(files.ClientCA)
		if err != nil {
			return nil, err
		}
		cfg.ClientCAs = pool
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	}
	return cfg, nil
}

// ClientFiles names the PEM files of a client's TLS setup.
type ClientFiles struct {
	// CA holds the CA certificates the server's certificate must chain to;
	// empty means the system's roots.
	CA string
	// Cert and Key are the client's certificate and key, for servers that
	// require client certificates; both or neither.
	Cert, Key string
	// ServerName overrides the name the server's certificate is checked
	// against (default: the host of the address dialled).
	ServerName string
}

// ClientConfig loads files into a client TLS configuration.
func ClientConfig(files ClientFiles) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: MinVersion, ServerName: files.ServerName}
	if files.CA != "" {
		pool, err := loadPool(files.CA)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	switch {
	case files.Cert != "" && files.Key != "":
		cert, err := tls.LoadX509KeyPair(files.Cert, files.Key)
		if err != nil {
			return nil, fmt.Errorf("TLS client certificate %s / key %s: %w", files.Cert, files.Key, err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	case files.Cert != "" || files.Key != "":
		return nil, errors.New("a TLS client certificate needs both --tls-cert and --tls-key")
	}
	return cfg, nil
}

// loadPool reads PEM CA certificates from path.
func loadPool(path string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("TLS CA: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("TLS CA %s: no PEM certificate in it", path)
	}
	return pool, nil
}

// CertificateWarning says what is wrong, at now, with the validity period
// of the certificate cfg serves — expired, or not valid yet — which every
// client refuses, so that a server started with it serves nobody; "" when
// it is valid or cfg serves none.
func CertificateWarning(cfg *tls.Config, now time.Time) string {
	if cfg == nil || len(cfg.Certificates) == 0 {
		return ""
	}
	leaf := cfg.Certificates[0].Leaf
	if leaf == nil {
		if len(cfg.Certificates[0].Certificate) == 0 {
			return ""
		}
		var err error
		if leaf, err = x509.ParseCertificate(cfg.Certificates[0].Certificate[0]); err != nil {
			return ""
		}
	}
	switch {
	case now.After(leaf.NotAfter):
		return fmt.Sprintf("the TLS certificate (%s) expired on %s: clients refuse it; renew it and restart", leaf.Subject.CommonName, leaf.NotAfter.UTC().Format(time.RFC3339))
	case now.Before(leaf.NotBefore):
		return fmt.Sprintf("the TLS certificate (%s) is not valid before %s: clients refuse it until then (is this machine's clock right?)", leaf.Subject.CommonName, leaf.NotBefore.UTC().Format(time.RFC3339))
	}
	return ""
}
