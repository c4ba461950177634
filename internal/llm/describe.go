package llm

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// maxDescribedMessage bounds the provider's message in Describe.
const maxDescribedMessage = 300

// Describe says a Complete or Probe error to whoever configured the
// endpoint: what Reason says (the HTTP status and error code, the timeout,
// the kind of failure) with the provider's own message on one line (at
// most 300 bytes: "HTTP 404 Not Found (model_not_found): The model `x`
// does not exist…") and, for a connection that failed, the system's reason
// ("connect: connection refused", "no such host", an untrusted
// certificate). It never gives the base URL or the address, which
// ListEndpoints keeps from callers too; an inline endpoint, which a caller
// points anywhere, is described with Reason only, since its provider's
// message is whatever that host chose to answer.
func Describe(err error) string {
	var (
		status    *StatusError
		timeout   *TimeoutError
		conn      *ConnectionError
		malformed *MalformedResponseError
		exhausted *ExhaustedError
		invalid   *apperr.InvalidArgumentError
	)
	switch {
	case errors.As(err, &exhausted):
		return fmt.Sprintf("gave up after %d attempts; last error: %s", exhausted.Attempts, Describe(exhausted.Last))
	case errors.As(err, &status):
		s := Reason(status)
		if msg := oneLine(status.Message, maxDescribedMessage); msg != "" {
			s += ": " + msg
		}
		return s
	case errors.As(err, &timeout) && timeout.Whole && timeout.Last != nil:
		return fmt.Sprintf("no complete response within the call's %s; last error: %s", timeout.After, Describe(timeout.Last))
	case errors.As(err, &timeout):
		return (&TimeoutError{After: timeout.After, Whole: timeout.Whole}).Error()
	case errors.As(err, &conn):
		return "connection failed: " + connectionReason(conn.Err)
	case errors.As(err, &malformed):
		return "malformed response: " + oneLine(malformed.Reason, maxDescribedMessage)
	case errors.As(err, &invalid):
		return invalid.Error()
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "the call ended before a response: " + err.Error()
	}
	var named *EndpointError
	if errors.As(err, &named) {
		return named.Err.Error()
	}
	return err.Error()
}

// connectionReason is why a connection failed, without the address.
func connectionReason(err error) string {
	var (
		dns       *net.DNSError
		sys       *os.SyscallError
		authority x509.UnknownAuthorityError
		host      x509.HostnameError
		invalid   x509.CertificateInvalidError
	)
	switch {
	case errors.As(err, &dns):
		return "DNS lookup: " + dns.Err
	case errors.As(err, &sys):
		return sys.Error() // "connect: connection refused"
	case errors.As(err, &authority):
		return "TLS: the server's certificate is signed by an unknown authority"
	case errors.As(err, &host):
		return "TLS: the server's certificate is not valid for its host name"
	case errors.As(err, &invalid):
		return "TLS: the server's certificate is invalid (" + invalidReason(invalid.Reason) + ")"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the server closed the connection before a complete response"
	case errors.Is(err, http.ErrSchemeMismatch):
		return "the server answered HTTP to an HTTPS request"
	}
	return "the request or its response was lost in transit"
}

// invalidReason names an x509 invalidity.
func invalidReason(r x509.InvalidReason) string {
	if r == x509.Expired {
		return "expired or not yet valid"
	}
	return "not usable for this server"
}

// oneLine is s with its white space runs folded to one space, cut to at
// most n bytes (at a rune boundary, marked "…").
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
