// Package transporttest creates throwaway certificate authorities and
// certificates for tests and load runs, in a temporary directory: no private
// key is ever committed.
package transporttest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// PKI holds the PEM files of one test certificate authority and of the
// certificates it issued.
type PKI struct {
	// CA is the authority's certificate.
	CA string
	// ServerCert and ServerKey are valid for 127.0.0.1, ::1 and localhost.
	ServerCert, ServerKey string
	// ClientCert and ClientKey are a client certificate (CN "test-client").
	ClientCert, ClientKey string

	dir    string
	caCert *x509.Certificate
	caKey  *ecdsa.PrivateKey
}

// New creates a CA and a server and a client certificate under tb's
// temporary directory.
func New(tb testing.TB) *PKI {
	tb.Helper()
	p, err := Write(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// Write creates a CA and a server and a client certificate, valid for a
// day, as PEM files in dir.
func Write(dir string) (*PKI, error) {
	p := &PKI{dir: dir}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	p.caKey = key
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "triage test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	if p.caCert, err = x509.ParseCertificate(der); err != nil {
		return nil, err
	}
	if p.CA, err = p.write("ca.pem", "CERTIFICATE", der); err != nil {
		return nil, err
	}
	if p.ServerCert, p.ServerKey, err = p.issue("server", x509.ExtKeyUsageServerAuth); err != nil {
		return nil, err
	}
	if p.ClientCert, p.ClientKey, err = p.issue("test-client", x509.ExtKeyUsageClientAuth); err != nil {
		return nil, err
	}
	return p, nil
}

// Issue creates a certificate and key named cn for usage, signed by the CA.
// Server certificates are valid for 127.0.0.1, ::1 and localhost.
func (p *PKI) Issue(tb testing.TB, cn string, usage x509.ExtKeyUsage) (certFile, keyFile string) {
	tb.Helper()
	certFile, keyFile, err := p.issue(cn, usage)
	if err != nil {
		tb.Fatal(err)
	}
	return certFile, keyFile
}

func (p *PKI) issue(cn string, usage x509.ExtKeyUsage) (certFile, keyFile string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return "", "", err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
	}
	if usage == x509.ExtKeyUsageServerAuth {
		tmpl.DNSNames = []string{"localhost"}
		tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.caCert, &key.PublicKey, p.caKey)
	if err != nil {
		return "", "", err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", "", err
	}
	if certFile, err = p.write(cn+".pem", "CERTIFICATE", der); err != nil {
		return "", "", err
	}
	keyFile, err = p.write(cn+"-key.pem", "PRIVATE KEY", keyDER)
	return certFile, keyFile, err
}

func (p *PKI) write(name, kind string, der []byte) (string, error) {
	path := filepath.Join(p.dir, name)
	return path, os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600)
}
