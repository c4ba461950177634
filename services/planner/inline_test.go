package planner_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/services/planner"
)

// newInlinePlanner serves a Planner whose inline endpoints may reach hosts
// (a comma-separated --allow-inline-endpoints list).
func newInlinePlanner(t *testing.T, hosts string) triagev1.PlannerServiceClient {
	t.Helper()
	allowed, err := planner.ParseInlineHosts(hosts)
	if err != nil {
		t.Fatal(err)
	}
	cfg := planner.Config{Getenv: func(string) string { return "" }, Now: time.Now, InlineHosts: allowed}
	svc := server.Service{Name: "planner", Desc: &triagev1.PlannerService_ServiceDesc, Impl: planner.New(cfg)}
	return triagev1.NewPlannerServiceClient(servertest.Start(t, nil, svc))
}

// inlineRequest asks for an LLM plan from the inline endpoint at baseURL.
func inlineRequest(baseURL string, timeout time.Duration) *triagev1.CreatePlanRequest {
	ep := &triagev1.LLMEndpoint{BaseUrl: baseURL, Model: "m", Mode: triagev1.SolverMode_SOLVER_MODE_STANDARD}
	if timeout > 0 {
		ep.Timeout = durationpb.New(timeout)
	}
	return &triagev1.CreatePlanRequest{
		Endpoint: &triagev1.CreatePlanRequest_InlineEndpoint{InlineEndpoint: ep},
		Problems: problems(2), Budget: 100,
	}
}

// hostPort returns the host:port of a URL.
func hostPort(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

func TestParseInlineHosts(t *testing.T) {
	tests := []struct {
		in      string
		want    string // the entries, formatted, space-separated
		wantErr bool
	}{
		{in: "", want: ""},
		{in: "127.0.0.1:8000, VLLM.internal ,[::1]:11434,::1", want: "127.0.0.1:8000 vllm.internal [::1]:11434 ::1"},
		{in: "host:0", wantErr: true},
		{in: "host:99999", wantErr: true},
		{in: "host:http", wantErr: true},
		{in: "http://host", wantErr: true},
		{in: "user@host", wantErr: true},
		{in: "*.internal", wantErr: true},
		{in: ":8000", wantErr: true},
	}
	for _, tt := range tests {
		hosts, err := planner.ParseInlineHosts(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseInlineHosts(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		var got []string
		for _, h := range hosts {
			got = append(got, h.String())
		}
		if !tt.wantErr && strings.Join(got, " ") != tt.want {
			t.Errorf("ParseInlineHosts(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestInlineEndpointAllowList(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply {
		return llmtest.OK(`{"plan":[{"id":"p1","tokens":10}]}`)
	}))
	addr := hostPort(t, srv.URL())
	port := addr[strings.LastIndex(addr, ":")+1:]
	tests := []struct {
		name      string
		allow     string
		baseURL   string
		timeout   time.Duration
		wantField string // "" when the call must succeed
	}{
		{name: "off by default", allow: "", baseURL: srv.URL(), wantField: "inline_endpoint"},
		{name: "allowed host and port", allow: addr, baseURL: srv.URL()},
		{name: "allowed host, any port", allow: "127.0.0.1", baseURL: srv.URL()},
		{name: "other port", allow: "127.0.0.1:1", baseURL: srv.URL(), wantField: "inline_endpoint.base_url"},
		{name: "other host", allow: "10.0.0.1", baseURL: srv.URL(), wantField: "inline_endpoint.base_url"},
		{name: "same address, other spelling", allow: addr, baseURL: "http://localhost:" + port + "/v1", wantField: "inline_endpoint.base_url"},
		{name: "decimal IP", allow: addr, baseURL: "http://2130706433:" + port + "/v1", wantField: "inline_endpoint.base_url"},
		{name: "default port", allow: "127.0.0.1:80", baseURL: "http://127.0.0.1/v1", wantField: ""},
		{name: "credentials", allow: addr, baseURL: "http://user:pw@" + addr + "/v1", wantField: "inline_endpoint.base_url"},
		{name: "userinfo hides the host", allow: "trusted.example", baseURL: "http://trusted.example@" + addr + "/v1", wantField: "inline_endpoint.base_url"},
		{name: "scheme", allow: addr, baseURL: "file:///etc/passwd", wantField: "inline_endpoint.base_url"},
		{name: "gopher", allow: addr, baseURL: "gopher://" + addr + "/", wantField: "inline_endpoint.base_url"},
		{name: "the issue's timeout", allow: addr, baseURL: srv.URL(), timeout: 360000 * time.Second, wantField: "inline_endpoint.timeout"},
		{name: "timeout at the cap", allow: addr, baseURL: srv.URL(), timeout: planner.MaxInlineTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newInlinePlanner(t, tt.allow)
			_, err := c.CreatePlan(context.Background(), inlineRequest(tt.baseURL, tt.timeout))
			if tt.wantField == "" {
				// "default port" reaches nothing listening on port 80; any
				// error but a validation error will do.
				if status.Code(err) == codes.InvalidArgument {
					t.Fatalf("err = %v, want the call to be allowed", err)
				}
				return
			}
			fvs := grpcerr.FieldViolations(err)
			if status.Code(err) != codes.InvalidArgument || len(fvs) != 1 || fvs[0].GetField() != tt.wantField {
				t.Fatalf("err = %v, want InvalidArgument on %s alone", err, tt.wantField)
			}
		})
	}
	if srv.Count() < 3 {
		t.Errorf("the allowed calls reached the endpoint %d times, want at least 3", srv.Count())
	}
}

const upstreamSecret = "INTERNAL-SECRET-TOKEN-XYZ db password=hunter2"

func TestInlineUpstreamErrorsAreSanitized(t *testing.T) {
	tests := []struct {
		name     string
		reply    llmtest.Reply
		wantCode codes.Code
		wantMsg  string
	}{
		{name: "400 plain text", reply: llmtest.Raw(400, upstreamSecret), wantCode: codes.FailedPrecondition, wantMsg: "model m refused the request: HTTP 400 Bad Request"},
		{name: "400 OpenAI shape", reply: llmtest.JSON(400, map[string]any{"error": map[string]any{"message": upstreamSecret, "type": "invalid_request_error", "code": "context_length_exceeded"}}),
			wantCode: codes.FailedPrecondition, wantMsg: "HTTP 400 Bad Request (context_length_exceeded)"},
		{name: "401 detail", reply: llmtest.JSON(401, map[string]any{"detail": upstreamSecret}), wantCode: codes.FailedPrecondition, wantMsg: "HTTP 401 Unauthorized"},
		{name: "500 every time", reply: llmtest.Raw(500, upstreamSecret), wantCode: codes.Unavailable, wantMsg: "last error: HTTP 500 Internal Server Error"},
		{name: "500 with a code that is text", reply: llmtest.JSON(500, map[string]any{"error": map[string]any{"message": "x", "code": upstreamSecret}}), wantCode: codes.Unavailable, wantMsg: "HTTP 500 Internal Server Error"},
		{name: "200 that is not a completion", reply: llmtest.Raw(200, `{"secret":"`+upstreamSecret+`"}`), wantCode: codes.Unavailable, wantMsg: "last error: malformed response"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // the retryable cases each wait out their timeout
			srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return tt.reply }))
			c := newInlinePlanner(t, hostPort(t, srv.URL()))
			// Short: the retryable cases give up when the whole call's
			// timeout ends, which is what an attacker gets at most. Long
			// enough that a loaded machine still completes an attempt
			// first (at 1 s one CI run ended before any, so the message
			// had no last error to describe).
			_, err := c.CreatePlan(context.Background(), inlineRequest(srv.URL(), 4*time.Second))
			if status.Code(err) != tt.wantCode || !strings.Contains(status.Convert(err).Message(), tt.wantMsg) {
				t.Errorf("err = %v, want %v containing %q", err, tt.wantCode, tt.wantMsg)
			}
			for _, leak := range []string{"INTERNAL-SECRET", "hunter2", "127.0.0.1"} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("the error carries %q: %v", leak, err)
				}
			}
		})
	}
}

// TestInlineBlackHoleBoundedByItsTimeout: an endpoint that never answers,
// with a 2 s timeout, holds the call for that timeout of the whole call —
// not 5 attempts × 2 s plus backoff, as before. The error names the call's
// timeout, which only the bound on the whole call reports, and the server
// saw fewer than the 5 attempts; the clock only checks the lower bound,
// which a slow machine cannot break.
func TestInlineBlackHoleBoundedByItsTimeout(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return llmtest.Hang() }))
	c := newInlinePlanner(t, hostPort(t, srv.URL()))
	start := time.Now()
	_, err := c.CreatePlan(context.Background(), inlineRequest(srv.URL(), 2*time.Second))
	elapsed := time.Since(start)
	if status.Code(err) != codes.Unavailable || !strings.Contains(err.Error(), "within the call's 2s") {
		t.Errorf("err = %v, want Unavailable naming the call's timeout", err)
	}
	if n := srv.Count(); n < 1 || n >= 5 {
		t.Errorf("the endpoint saw %d attempts, want fewer than 5", n)
	}
	if elapsed < 2*time.Second {
		t.Errorf("the call ended after %v, before its 2s timeout", elapsed)
	}
}

// TestInlineRedirectNotFollowed: an allowed host cannot bounce the server's
// request to a host that is not allowed.
func TestInlineRedirectNotFollowed(t *testing.T) {
	var hits atomic.Int64
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, upstreamSecret)
	}))
	defer internal.Close()
	bouncer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, internal.URL+"/v1/chat/completions", http.StatusTemporaryRedirect)
	}))
	defer bouncer.Close()
	c := newInlinePlanner(t, hostPort(t, bouncer.URL))
	_, err := c.CreatePlan(context.Background(), inlineRequest(bouncer.URL+"/v1", 2*time.Second))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "HTTP 307") {
		t.Errorf("err = %v, want the 307 as a refusal", err)
	}
	if hits.Load() != 0 {
		t.Errorf("the redirect was followed: the other host saw %d requests", hits.Load())
	}
}

func TestLongRunning(t *testing.T) {
	s := planner.New(planner.Config{})
	if !s.LongRunning(triagev1.PlannerService_CreatePlan_FullMethodName) || s.LongRunning(triagev1.PlannerService_RepairPlan_FullMethodName) {
		t.Error("only CreatePlan waits on a model")
	}
	var _ server.LongRunner = s
}
