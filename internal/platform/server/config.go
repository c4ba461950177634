package server

import (
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	"github.com/triage-eval/triage/internal/platform/version"
)

// Config holds the settings of one server process.
type Config struct {
	// MaxMessageBytes caps the size of any one received or sent message.
	MaxMessageBytes int
	// ShutdownGrace is how long graceful stop may take before in-flight RPCs
	// are cut off.
	ShutdownGrace time.Duration
	// Drain is how long, at shutdown, health says NOT_SERVING while calls
	// are still accepted and served, before graceful stop; 0 disables it.
	Drain time.Duration
	// HandshakeTimeout bounds a new connection's TLS handshake and HTTP/2
	// preface; 0 means DefaultHandshakeTimeout.
	HandshakeTimeout time.Duration
	// Hurry, when it closes during a shutdown (a second interrupt), ends
	// the drain and the grace period at once: the calls in flight are cut
	// off. Nil never does.
	Hurry <-chan struct{}
	// KeepaliveTime is how often an idle connection is pinged.
	KeepaliveTime time.Duration
	// KeepaliveTimeout is how long a ping may go unanswered before the
	// connection is closed.
	KeepaliveTimeout time.Duration
	// MinClientPingInterval is the most often a client may ping; clients that
	// ping more often are disconnected.
	MinClientPingInterval time.Duration
	// MaxConnectionAge, when > 0, is how long a client connection lives
	// before the server asks the client to move (GOAWAY, grpc adding ±10%):
	// calls under way finish on it, however long, and the client's next
	// calls go on a new connection, for which it resolves the service's
	// name again — so clients balancing over a headless Service's pods
	// (round_robin, see cli's serviceConfig) find the pods added since. 0
	// keeps connections for ever (in-process services).
	MaxConnectionAge time.Duration
	// TLS, when set, serves TLS (mutual TLS when it requires client
	// certificates; see package transport); nil serves plaintext.
	TLS *tls.Config
	// Tokens, when set, requires a bearer token granting the service on
	// every call but health checks, checked on the call's headers before
	// any of its messages is read (tap.go); nil lets every caller in, each
	// peer address a caller of its own (peers.go).
	Tokens *Tokens
	// Limits bound each caller's calls per second and calls at once.
	Limits Limits
	// Deadlines are given to calls that arrive without one, and bound how
	// long a call may wait on a silent client (Deadlines.Idle).
	Deadlines Deadlines
	// AfterFunc schedules the idle bound's timers and the refusal log's
	// summaries (refusallog.go): f runs after d unless stop is called
	// first. Nil uses the real clock (time.AfterFunc); tests inject their
	// own.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Now is the clock of the log's budget for refused calls
	// (refusallog.go); nil is time.Now.
	Now func() time.Time
	// Version is the stamp set in every response that has a version field
	// (stamp.go); the zero value means the running binary's,
	// version.Current().Stamp().
	Version version.Stamp
}

// DefaultMaxConnectionAge is triage serve's MaxConnectionAge: a client
// balancing over a Service's pods reaches one added by an autoscaler
// within about this long (plus its DNS re-resolution's 30 s floor).
const DefaultMaxConnectionAge = 2 * time.Minute

// DefaultConfig returns the settings used when nothing is configured:
// plaintext, no tokens, no limits and no default deadlines, as suits
// services inside a command's own process. triage serve adds
// DefaultLimits and DefaultDeadlines.
func DefaultConfig() Config {
	return Config{
		MaxMessageBytes:       16 << 20,
		ShutdownGrace:         10 * time.Second,
		Drain:                 5 * time.Second,
		KeepaliveTime:         2 * time.Minute,
		KeepaliveTimeout:      20 * time.Second,
		MinClientPingInterval: 10 * time.Second,
	}
}

// Validate reports every setting that is out of range.
func (c Config) Validate() error {
	var errs []error
	if c.MaxMessageBytes < 1024 {
		errs = append(errs, fmt.Errorf("max message size must be ≥ 1024 bytes, got %d", c.MaxMessageBytes))
	}
	if c.ShutdownGrace <= 0 {
		errs = append(errs, fmt.Errorf("shutdown grace must be > 0, got %v", c.ShutdownGrace))
	}
	if c.Drain < 0 {
		errs = append(errs, fmt.Errorf("drain must be ≥ 0, got %v", c.Drain))
	}
	if c.KeepaliveTime <= 0 || c.KeepaliveTimeout <= 0 || c.MinClientPingInterval <= 0 {
		errs = append(errs, errors.New("keepalive durations must be > 0"))
	}
	if c.HandshakeTimeout < 0 {
		errs = append(errs, fmt.Errorf("handshake timeout must be ≥ 0, got %v", c.HandshakeTimeout))
	}
	if c.MaxConnectionAge < 0 {
		errs = append(errs, fmt.Errorf("max connection age must be ≥ 0, got %v", c.MaxConnectionAge))
	}
	errs = append(errs, c.Limits.validate(), c.Deadlines.validate())
	return errors.Join(errs...)
}
