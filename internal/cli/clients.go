package cli

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"google.golang.org/grpc"

	"github.com/triage-eval/triage/internal/platform/inproc"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
)

// connections holds one client connection per service name: to a remote
// server where an address was given, otherwise to services started in this
// process.
type connections struct {
	conns  map[string]grpc.ClientConnInterface
	closes []func() error
}

// connect returns connections to the named services. addrs maps a service
// name to a remote address ("" for in process), dialled as dial says (TLS,
// token; see transport.go); deps is what in-process services get (a nil
// store: the Executor scores inline pools only). In-process services log
// warnings and errors to logOut, where a remote service that stays
// unreachable is also reported (watchOutages).
func connect(names []string, addrs map[string]string, dial *dialFlags, deps serviceDeps, logOut io.Writer) (*connections, error) {
	c := &connections{conns: map[string]grpc.ClientConnInterface{}}
	var local []string
	for _, name := range names {
		addr := addrs[name]
		if addr == "" {
			local = append(local, name)
			continue
		}
		opts, err := dial.options(addr)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("--%s-addr %s: %w", name, addr, err), c.Close())
		}
		cc, err := grpc.NewClient(addr, append(append(resilientOptions(), deps.telemetry().ClientOption()), opts...)...)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("--%s-addr %s: %w", name, addr, err), c.Close())
		}
		c.conns[name] = cc
		c.closes = append(c.closes, cc.Close)
		if err := awaitService(cc, readyTimeout); err != nil {
			return nil, errors.Join(fmt.Errorf("%s service at %s %w", name, addr, err), c.Close())
		}
		if err := checkServes(cc, availableServices()[name].desc.ServiceName, readyTimeout); err != nil {
			return nil, errors.Join(fmt.Errorf("--%s-addr %s %w", name, addr, err), c.Close())
		}
		go watchOutages(cc, fmt.Sprintf("%s service at %s", name, addr), logOut, outageWarnAfter, time.Now)
	}
	if len(local) > 0 {
		// Errors only: a failed call is the command's to report (it says
		// how many failed and why); the services' own lines, one WARN per
		// failed cell, only buried that. A bug's Internal and a panic still
		// show.
		logger := slog.New(telemetry.LogHandler(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: slog.LevelError})))
		if deps.now == nil {
			deps.now = time.Now
		}
		conn, err := inproc.Start(server.DefaultConfig(), logger, deps.telemetry(), buildServices(local, deps))
		if err != nil {
			return nil, errors.Join(err, c.Close())
		}
		for _, name := range local {
			c.conns[name] = conn
		}
		c.closes = append(c.closes, conn.Close)
	}
	return c, nil
}

// Close closes every connection and stops in-process services.
func (c *connections) Close() error {
	var errs []error
	for _, f := range c.closes {
		errs = append(errs, f())
	}
	c.closes = nil
	return errors.Join(errs...)
}
