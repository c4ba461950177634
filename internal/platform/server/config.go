package server

import (
	"errors"
	"fmt"
	"time"
)

// Config holds the settings of one server process.
type Config struct {
	// MaxMessageBytes caps the size of any one received or sent message.
	MaxMessageBytes int
	// ShutdownGrace is how long graceful stop may take before in-flight RPCs
	// are cut off.
	ShutdownGrace time.Duration
	// KeepaliveTime is how often an idle connection is pinged.
	KeepaliveTime time.Duration
	// KeepaliveTimeout is how long a ping may go unanswered before the
	// connection is closed.
	KeepaliveTimeout time.Duration
	// MinClientPingInterval is the most often a client may ping; clients that
	// ping more often are disconnected.
	MinClientPingInterval time.Duration
}

// DefaultConfig returns the settings used when nothing is configured.
func DefaultConfig() Config {
	return Config{
		MaxMessageBytes:       16 << 20,
		ShutdownGrace:         10 * time.Second,
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
	if c.KeepaliveTime <= 0 || c.KeepaliveTimeout <= 0 || c.MinClientPingInterval <= 0 {
		errs = append(errs, errors.New("keepalive durations must be > 0"))
	}
	return errors.Join(errs...)
}
