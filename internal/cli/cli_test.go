package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/version"
)

func testEnv(vars map[string]string) (Env, *servertest.LogBuffer, *servertest.LogBuffer) {
	out, errOut := &servertest.LogBuffer{}, &servertest.LogBuffer{}
	return Env{Stdin: strings.NewReader(""), Stdout: out, Stderr: errOut, Getenv: func(k string) string { return vars[k] }}, out, errOut
}

func TestServeAnswersHealthAndStopsOnCancel(t *testing.T) {
	env, _, logs := testEnv(map[string]string{"TRIAGE_LISTEN": "127.0.0.1:0", "TRIAGE_SHUTDOWN_GRACE": "2s", "TRIAGE_DRAIN": "300ms"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, []string{"serve", "--services", "oracle"}, env) }()

	addr := waitForAddr(t, logs)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	resp, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{Service: "triage.v1.OracleService"})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health = %v, %v", resp, err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v after cancel, want nil", err)
		}
	case <-time.After(time.Minute): // only catches a hang
		t.Fatal("serve did not stop")
	}
	if !strings.Contains(logs.String(), `"drain":"300ms"`) {
		t.Errorf("no drain in the log:\n%s", logs)
	}
	if !strings.Contains(logs.String(), "stopped gracefully") {
		t.Errorf("no graceful stop in the log:\n%s", logs)
	}
	if !strings.Contains(logs.String(), fmt.Sprintf(`"msg":"triage","version":%q`, version.Current().Version)) {
		t.Errorf("serve does not log its build:\n%s", logs)
	}
}

// waitUntil polls done until it holds. limit only catches a hang: past it
// the test fails with what was awaited and failed's account of the state.
func waitUntil(t *testing.T, limit time.Duration, what string, done func() bool, failed func() string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s\n%s", what, failed())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// waitForAddr reads the "serving" log line for the address bound to port 0.
func waitForAddr(t *testing.T, logs *servertest.LogBuffer) string {
	t.Helper()
	var addr string
	waitUntil(t, 2*time.Minute, "serving log line with the server's address", func() bool {
		for _, line := range strings.Split(logs.String(), "\n") {
			var rec struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "serving" {
				addr = rec.Addr
				return true
			}
		}
		return false
	}, logs.String)
	return addr
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string // the error must name the culprit
	}{
		{"no command", nil, nil, "no command"},
		{"unknown command", []string{"frobnicate"}, nil, `"frobnicate"`},
		{"unknown service", []string{"serve", "--services", "oracle,nope"}, nil, `--services: unknown service "nope"`},
		{"bad env duration", []string{"serve"}, map[string]string{"TRIAGE_SHUTDOWN_GRACE": "soon"}, "TRIAGE_SHUTDOWN_GRACE"},
		{"bad env number", []string{"serve"}, map[string]string{"TRIAGE_MAX_MESSAGE_BYTES": "lots"}, "TRIAGE_MAX_MESSAGE_BYTES"},
		{"bad flag", []string{"serve", "--max-message-bytes", "x"}, nil, "max-message-bytes"},
		{"unknown flag", []string{"serve", "--colour"}, nil, "colour"},
		{"stray argument", []string{"serve", "extra"}, nil, "extra"},
		{"bad log level", []string{"serve", "--log-level", "loud"}, nil, "--log-level"},
		{"bad log format", []string{"serve", "--log-format", "xml"}, nil, "--log-format"},
		{"tiny messages", []string{"serve", "--max-message-bytes", "10"}, nil, "max message size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, _, _ := testEnv(tt.env)
			err := Run(context.Background(), tt.args, env)
			if !errors.Is(err, ErrUsage) {
				t.Fatalf("err = %v, want a usage error", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestFlagWinsOverEnvironment(t *testing.T) {
	env, _, _ := testEnv(map[string]string{"TRIAGE_LISTEN": "256.0.0.1:1", "TRIAGE_SERVICES": "oracle"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// The bad address from the environment must not be used when the flag
	// gives a good one; the cancelled context makes serve return at once.
	if err := Run(ctx, []string{"serve", "--listen", "127.0.0.1:0"}, env); err != nil {
		t.Fatalf("Run = %v", err)
	}
	env, _, _ = testEnv(map[string]string{"TRIAGE_LISTEN": "256.0.0.1:1", "TRIAGE_SERVICES": "oracle"})
	if err := Run(ctx, []string{"serve"}, env); err == nil || !strings.Contains(err.Error(), "256.0.0.1:1") {
		t.Fatalf("Run with a bad TRIAGE_LISTEN = %v, want an error naming it", err)
	}
}

func TestHelp(t *testing.T) {
	env, out, _ := testEnv(nil)
	if err := Run(context.Background(), []string{"help"}, env); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "serve") {
		t.Errorf("help lacks the serve command:\n%s", out)
	}
	env, _, errOut := testEnv(nil)
	if err := Run(context.Background(), []string{"serve", "-h"}, env); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "TRIAGE_") || !strings.Contains(errOut.String(), "-listen") {
		t.Errorf("serve -h lacks flags or the environment note:\n%s", errOut)
	}
	// A back-quoted word of a usage is shown as the flag's argument: a
	// switch's usage must have none (quote's did, "-rerun triage baseline").
	env, _, errOut = testEnv(nil)
	if err := Run(context.Background(), []string{"quote", "-h"}, env); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"json", "rerun", "keep-ungradeable", "keep-errors"} {
		if !strings.Contains(errOut.String(), "\n  -"+flag+"\n") {
			t.Errorf("quote -h shows -%s with an argument:\n%s", flag, errOut)
		}
	}
}

// TestUsageListsEveryCommandAligned: the command list names every command,
// each summary starting in the same column, past the longest name.
func TestUsageListsEveryCommandAligned(t *testing.T) {
	var b strings.Builder
	cmds := commands()
	usage(&b, cmds)
	_, list, _ := strings.Cut(b.String(), "commands:\n")
	list, _, _ = strings.Cut(list, "\n\n")
	lines := strings.Split(list, "\n")
	if len(lines) != len(cmds) {
		t.Fatalf("%d lines for %d commands:\n%s", len(lines), len(cmds), list)
	}
	column := -1
	for _, line := range lines {
		name := strings.Fields(line)[0]
		cmd, ok := cmds[name]
		if !ok {
			t.Fatalf("line %q names no command", line)
		}
		at := strings.Index(line, cmd.summary)
		if at <= len("  "+name) {
			t.Errorf("line %q: the summary does not follow the name", line)
		}
		if column >= 0 && at != column {
			t.Errorf("line %q: summary at column %d, others at %d", line, at, column)
		}
		column = at
	}
}

// serveInTest runs triage serve with args in process on a free loopback
// port (TRIAGE_LISTEN 127.0.0.1:0, TRIAGE_DRAIN 0s, and vars) and returns
// its address and stop, which shuts it down as SIGTERM would and fails the
// test if serve fails or does not stop (a hang-catching minute).
func serveInTest(t *testing.T, vars map[string]string, args ...string) (addr string, stop func()) {
	t.Helper()
	env := map[string]string{"TRIAGE_LISTEN": "127.0.0.1:0", "TRIAGE_DRAIN": "0s"}
	maps.Copy(env, vars)
	e, _, logs := testEnv(env)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Run(ctx, append([]string{"serve"}, args...), e) }()
	var once sync.Once
	return waitForAddr(t, logs), func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-served:
				if err != nil {
					t.Errorf("serve: %v", err)
				}
			case <-time.After(time.Minute): // only catches a hang
				t.Error("serve did not stop")
			}
		})
	}
}

// TestServeRefusesAnEmptyServiceList: --services given empty (a template's
// unset value) is a usage error, not "serve every service".
func TestServeRefusesAnEmptyServiceList(t *testing.T) {
	for _, args := range [][]string{{"serve", "--services="}, {"serve", "--services", " "}} {
		env, _, _ := testEnv(map[string]string{"TRIAGE_LISTEN": "127.0.0.1:0"})
		if err := Run(context.Background(), args, env); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "--services is empty") {
			t.Errorf("%q: %v, want a usage error, the list empty", args, err)
		}
	}
}
