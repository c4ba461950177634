package gateway_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/gateway"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/planner"
)

// fixture is the three real services on bufconn, and the gateway in front of
// them on an HTTP test server.
type fixture struct {
	conn *grpc.ClientConn
	http *httptest.Server
}

// newFixture serves the Oracle, a Planner without endpoints and an Executor
// without a store (inline pools only).
func newFixture(t *testing.T) fixture {
	t.Helper()
	conn := servertest.Start(t, nil,
		server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()},
		server.Service{Name: "planner", Desc: &triagev1.PlannerService_ServiceDesc, Impl: planner.New(planner.Config{Now: time.Now})},
		server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(nil, time.Now)},
	)
	return fixture{conn: conn, http: serveGateway(t, conn)}
}

// serveGateway serves gateway.New over conn until the test ends.
func serveGateway(t *testing.T, conn grpc.ClientConnInterface) *httptest.Server {
	t.Helper()
	mux, err := gateway.New(context.Background(), conn, gateway.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// call makes one HTTP request and returns the status and body.
func (f fixture) call(t *testing.T, method, path, body string, header http.Header) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, f.http.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := f.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type = %q, want application/json", method, path, ct)
	}
	return resp.StatusCode, out
}

// decode parses JSON into a new message of m's type, rejecting unknown
// fields: the gateway must answer exactly the API's messages.
func decode[M proto.Message](t *testing.T, data []byte, m M) M {
	t.Helper()
	if err := protojson.Unmarshal(data, m); err != nil {
		t.Fatalf("decode %T from %s: %v", m, data, err)
	}
	return m
}

const (
	pool = `{"items": [{"id": "p1", "cost": 1200, "correct": true},
	                   {"id": "p2", "cost": 800, "correct": false},
	                   {"id": "p3", "cost": 3000, "correct": true},
	                   {"id": "p4", "cost": 500, "correct": true, "value": 2}]`
	computeBody = pool + `, "budgets": [{"alpha": 0.25}, {"alpha": 0.5}, {"tokens": 2000}],
	                        "random": {"samples": 200, "seed": 7}}`
	executeBody = `{"inline": ` + pool + `}, "budget": {"alpha": 0.5},
	                "plan": [{"id": "p4", "tokens": 600}, {"id": "p2", "tokens": 900}, {"id": "nope", "tokens": 5}]}`
	repairBody = `{"rawOutput": "Sure!\n` + "```json" + `\n{\"plan\": [{\"id\": \"p2\", \"tokens\": \"1,200\"}, {\"id\": 3, \"tokens\": 800.7},]}\n` + "```" + `",
	               "problemIds": ["alpha", "beta", "gamma"], "budget": 1500, "opaqueIds": true}`
)

// TestSameResultAsGRPC calls each RPC over HTTP/JSON and over gRPC with the
// same request and wants the same response.
func TestSameResultAsGRPC(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	oracleC := triagev1.NewOracleServiceClient(f.conn)
	executorC := triagev1.NewExecutorServiceClient(f.conn)
	plannerC := triagev1.NewPlannerServiceClient(f.conn)
	tests := []struct {
		name, method, path, body string
		// grpc makes the same call over gRPC, the request decoded from body.
		grpc func(t *testing.T, body string) (proto.Message, error)
		// resp is an empty response to decode the HTTP answer into.
		resp proto.Message
	}{
		{"ComputeReferences", http.MethodPost, "/v1/oracle:computeReferences", computeBody,
			func(t *testing.T, body string) (proto.Message, error) {
				return oracleC.ComputeReferences(ctx, decode(t, []byte(body), &triagev1.ComputeReferencesRequest{}))
			}, &triagev1.ComputeReferencesResponse{}},
		{"RepairPlan", http.MethodPost, "/v1/planner:repairPlan", repairBody,
			func(t *testing.T, body string) (proto.Message, error) {
				return plannerC.RepairPlan(ctx, decode(t, []byte(body), &triagev1.RepairPlanRequest{}))
			}, &triagev1.RepairPlanResponse{}},
		{"ExecutePlan", http.MethodPost, "/v1/executor:executePlan", executeBody,
			func(t *testing.T, body string) (proto.Message, error) {
				return executorC.ExecutePlan(ctx, decode(t, []byte(body), &triagev1.ExecutePlanRequest{}))
			}, &triagev1.ExecutePlanResponse{}},
		{"ListEndpoints", http.MethodGet, "/v1/planner/endpoints", "",
			func(*testing.T, string) (proto.Message, error) {
				return plannerC.ListEndpoints(ctx, &triagev1.ListEndpointsRequest{})
			}, &triagev1.ListEndpointsResponse{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := f.call(t, tt.method, tt.path, tt.body, nil)
			if code != http.StatusOK {
				t.Fatalf("HTTP %d: %s", code, body)
			}
			got := decode(t, body, tt.resp)
			want, err := tt.grpc(t, tt.body)
			if err != nil {
				t.Fatalf("gRPC: %v", err)
			}
			if !proto.Equal(got, want) {
				t.Errorf("HTTP answer differs from gRPC:\nHTTP %v\ngRPC %v", got, want)
			}
			if proto.Size(want) == 0 && tt.name != "ListEndpoints" {
				t.Errorf("empty response: the comparison proves nothing")
			}
		})
	}
}

// TestBadRequestHasFieldViolations sends an invalid ComputeReferences body:
// HTTP 400, and a google.rpc.Status whose BadRequest details list the same
// field violations the gRPC call reports.
func TestBadRequestHasFieldViolations(t *testing.T) {
	f := newFixture(t)
	body := `{"items": [{"id": "a", "cost": -5, "correct": true}, {"id": "a", "cost": 3}], "budgets": []}`
	code, raw := f.call(t, http.MethodPost, "/v1/oracle:computeReferences", body, nil)
	if code != http.StatusBadRequest {
		t.Fatalf("HTTP %d, want 400: %s", code, raw)
	}
	st := decode(t, raw, &spb.Status{})
	if codes.Code(st.GetCode()) != codes.InvalidArgument || st.GetMessage() == "" {
		t.Errorf("status = %v, want InvalidArgument with a message", st)
	}
	got := grpcerr.FieldViolations(status.ErrorProto(st))
	_, err := triagev1.NewOracleServiceClient(f.conn).ComputeReferences(context.Background(), decode(t, []byte(body), &triagev1.ComputeReferencesRequest{}))
	want := grpcerr.FieldViolations(err)
	if len(want) < 2 {
		t.Fatalf("gRPC violations = %v, want several", want)
	}
	if len(got) != len(want) {
		t.Fatalf("HTTP violations = %v, want %v", got, want)
	}
	for i := range want {
		if !proto.Equal(got[i], want[i]) {
			t.Errorf("violation %d = %v, want %v", i, got[i], want[i])
		}
	}
	// What a client without protobuf reads: plain JSON names.
	var plain struct {
		Details []struct {
			Type            string `json:"@type"`
			FieldViolations []struct{ Field, Description string }
		}
	}
	if err := json.Unmarshal(raw, &plain); err != nil {
		t.Fatal(err)
	}
	// The BadRequest, then the server's version stamp (SPEC §10), which
	// every error carries.
	if len(plain.Details) != 2 || plain.Details[0].Type != "type.googleapis.com/google.rpc.BadRequest" ||
		len(plain.Details[0].FieldViolations) != len(want) || plain.Details[0].FieldViolations[0].Field != want[0].GetField() ||
		plain.Details[1].Type != "type.googleapis.com/triage.v1.VersionStamp" {
		t.Errorf("error JSON = %s", raw)
	}
}

// TestFieldNames: requests may use JSON or proto field names; an unknown
// field or query parameter is an InvalidArgument, never dropped.
func TestFieldNames(t *testing.T) {
	f := newFixture(t)
	const repairPath = "/v1/planner:repairPlan"
	_, camel := f.call(t, http.MethodPost, repairPath, `{"rawOutput": "[{\"id\": \"b\", \"tokens\": 5}]", "problemIds": ["a", "b"]}`, nil)
	tests := []struct {
		name, method, path, body string
		wantHTTP                 int
		wantCode                 codes.Code // for errors
		wantText                 string     // in the error message, or the body equal to camel
	}{
		{"proto names", http.MethodPost, repairPath, `{"raw_output": "[{\"id\": \"b\", \"tokens\": 5}]", "problem_ids": ["a", "b"]}`, http.StatusOK, codes.OK, ""},
		{"unknown field", http.MethodPost, repairPath, `{"rawOutput": "[]", "problemIDs": ["a"]}`, http.StatusBadRequest, codes.InvalidArgument, "problemIDs"},
		{"unknown nested field", http.MethodPost, "/v1/oracle:computeReferences",
			`{"items": [{"id": "a", "cost": 1, "correct": true, "colour": "red"}], "budgets": [{"tokens": 1}]}`, http.StatusBadRequest, codes.InvalidArgument, "colour"},
		{"malformed JSON", http.MethodPost, repairPath, `{"rawOutput": `, http.StatusBadRequest, codes.InvalidArgument, ""},
		{"unknown query parameter", http.MethodGet, "/v1/ground-truth?solver.model=m&colour=red", "", http.StatusBadRequest, codes.InvalidArgument, "colour"},
		{"unknown nested query parameter", http.MethodGet, "/v1/ground-truth?solver.colour=red", "", http.StatusBadRequest, codes.InvalidArgument, "solver.colour"},
		// Routes whose handler reads no query (body "*", or a request
		// without fields) refuse any parameter too.
		{"query parameter on a body route", http.MethodPost, repairPath + "?rawOutput=x", `{"rawOutput": "[]"}`, http.StatusBadRequest, codes.InvalidArgument, "rawOutput"},
		{"query parameter on a route without fields", http.MethodGet, "/v1/planner/endpoints?colour=red", "", http.StatusBadRequest, codes.InvalidArgument, "colour"},
		{"a route's path with another method", http.MethodGet, repairPath, "", http.StatusMethodNotAllowed, codes.Unimplemented, "allowed: POST"},
		// Known parameters, either name, reach the Executor, which has no
		// store here: FailedPrecondition, not InvalidArgument.
		{"query parameters", http.MethodGet, "/v1/ground-truth?solver.model=m&solver.mode=SOLVER_MODE_STANDARD&dataset=aime&pageSize=5&page_token=", "", http.StatusBadRequest, codes.FailedPrecondition, "store"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := f.call(t, tt.method, tt.path, tt.body, nil)
			if code != tt.wantHTTP {
				t.Fatalf("HTTP %d, want %d: %s", code, tt.wantHTTP, body)
			}
			if tt.wantCode == codes.OK {
				if got, want := decode(t, body, &triagev1.RepairPlanResponse{}), decode(t, camel, &triagev1.RepairPlanResponse{}); !proto.Equal(got, want) || len(want.GetParsed().GetPlan()) != 1 {
					t.Errorf("body = %s, want the camelCase request's %s", body, camel)
				}
				return
			}
			st := decode(t, body, &spb.Status{})
			if codes.Code(st.GetCode()) != tt.wantCode || !strings.Contains(st.GetMessage(), tt.wantText) {
				t.Errorf("status = %v, want %v mentioning %q", st, tt.wantCode, tt.wantText)
			}
			if tt.wantCode != codes.InvalidArgument || tt.wantText == "" {
				return
			}
			// The field is named in a BadRequest, not only in the text.
			named := false
			for _, fv := range grpcerr.FieldViolations(status.ErrorProto(st)) {
				named = named || strings.HasSuffix(fv.GetField(), tt.wantText)
			}
			if !named {
				t.Errorf("status %v: no field violation names %q", st, tt.wantText)
			}
		})
	}
}

// TestResponseJSON pins what the gateway emits: JSON (lowerCamelCase)
// names, zero values present, 64-bit integers as strings, enums by name.
func TestResponseJSON(t *testing.T) {
	f := newFixture(t)
	code, body := f.call(t, http.MethodPost, "/v1/planner:repairPlan", repairBody, nil)
	if code != http.StatusOK {
		t.Fatalf("HTTP %d: %s", code, body)
	}
	var got struct {
		Parsed     map[string]any   `json:"parsed"`
		PlannerIDs []map[string]any `json:"plannerIds"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"plannerIds in camelCase", len(got.PlannerIDs) == 3 && got.PlannerIDs[0]["plannerId"] == "p1" && got.PlannerIDs[0]["problemId"] == "alpha"},
		{"status by name", got.Parsed["status"] == "PARSE_STATUS_REPAIRED"},
		{"int64 as a string", got.Parsed["plannedTokens"] == "2000"},
		{"empty string emitted", got.Parsed["parseError"] == ""},
		{"empty list emitted", got.Parsed["droppedSteps"] != nil},
		{"no proto names", !strings.Contains(string(body), "planner_ids") && !strings.Contains(string(body), "over_budget")},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: %s", c.name, body)
		}
	}
}

// TestServerStreamError: a server-streaming RPC answers newline-delimited
// chunks; a call the server refuses is one {"error": status} chunk with the
// gRPC call's code.
func TestServerStreamError(t *testing.T) {
	f := newFixture(t)
	body := `{"solver": {"model": "m", "mode": "SOLVER_MODE_STANDARD"}, "endpoint": "q",
	          "problems": [{"id": "1", "dataset": "aime", "text": "1+1?", "gradingJson": "{\"kind\":\"math\",\"answer\":\"2\"}"}]}`
	stream, err := triagev1.NewExecutorServiceClient(f.conn).RunBaseline(context.Background(), decode(t, []byte(body), &triagev1.RunBaselineRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = stream.Recv()
	want := status.Code(err)
	if want == codes.OK || want == codes.Unknown {
		t.Fatalf("gRPC Recv = %v, want a refusal (this executor runs no baselines)", err)
	}
	_, raw := f.call(t, http.MethodPost, "/v1/executor:runBaseline", body, nil)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 1 {
		t.Fatalf("chunks = %q, want one", lines)
	}
	var chunk struct {
		Error  json.RawMessage `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &chunk); err != nil {
		t.Fatal(err)
	}
	if chunk.Result != nil || chunk.Error == nil {
		t.Fatalf("chunk = %s, want an error", lines[0])
	}
	if st := decode(t, chunk.Error, &spb.Status{}); codes.Code(st.GetCode()) != want {
		t.Errorf("error chunk code = %v, want %v", codes.Code(st.GetCode()), want)
	}
}

// recordingOracle answers ComputeReferences with nothing and keeps the
// incoming metadata.
type recordingOracle struct {
	triagev1.UnimplementedOracleServiceServer
	auth chan []string
}

func (o *recordingOracle) ComputeReferences(ctx context.Context, _ *triagev1.ComputeReferencesRequest) (*triagev1.ComputeReferencesResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	o.auth <- md.Get("authorization")
	return &triagev1.ComputeReferencesResponse{}, nil
}

// TestAuthorizationReachesServer: a bearer token sent over HTTP arrives as
// the gRPC "authorization" metadata, where the server checks tokens.
func TestAuthorizationReachesServer(t *testing.T) {
	o := &recordingOracle{auth: make(chan []string, 1)}
	conn := startRaw(t, func(s *grpc.Server) { triagev1.RegisterOracleServiceServer(s, o) })
	f := fixture{conn: conn, http: serveGateway(t, conn)}
	code, body := f.call(t, http.MethodPost, "/v1/oracle:computeReferences", `{}`, http.Header{"Authorization": {"Bearer s3cret"}})
	if code != http.StatusOK {
		t.Fatalf("HTTP %d: %s", code, body)
	}
	if got := <-o.auth; len(got) != 1 || got[0] != "Bearer s3cret" {
		t.Errorf("authorization metadata = %q, want [Bearer s3cret]", got)
	}
}

// startRaw serves what register registers on a bare gRPC server (no
// interceptors) on bufconn, and returns a connection to it.
func startRaw(t *testing.T, register func(*grpc.Server)) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	s := grpc.NewServer()
	register(s)
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	conn, err := grpc.NewClient("passthrough:///raw",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// TestUnreadableBodyNamesTheField: a body that is not JSON, or JSON the
// request message cannot hold, is answered 400 with a BadRequest naming the
// field (its path as the body writes it), as the server's own violations.
// (An import refused in its second message: internal/cli's
// TestGatewayStreamsOverServe, which has a store.)
func TestUnreadableBodyNamesTheField(t *testing.T) {
	f := newFixture(t)
	const computePath = "/v1/oracle:computeReferences"
	tests := []struct {
		name, path, body string
		wantField        string
		wantText         string // in the violation's description
	}{
		{"number too large", computePath, `{"items": [{"id": "a", "cost": 1e30, "correct": true}], "budgets": [{"alpha": 0.5}]}`, "items[0].cost", "1e30 (line 1, column 32)"},
		{"string for a number", computePath, `{"items": [{"id": "a", "cost": 1, "correct": true},
		  {"id": "b", "cost": "12abc"}], "budgets": [{"alpha": 0.5}]}`, "items[1].cost", `"12abc" (line 2, column 25)`},
		{"unknown field", computePath, `{"items": [{"id": "a", "cost": 1, "colour": "red"}], "budgets": []}`, "items[0].colour", `unknown field "colour"`},
		{"duplicate field", computePath, `{"items": [], "items": []}`, "items", "duplicate field"},
		{"wrong type", computePath, `{"items": 5}`, "items", "unexpected token 5"},
		{"unknown enum name", "/v1/planner:createPlan", `{"problems": [], "inlineEndpoint": {"mode": "SOLVER_MODE_FAST"}}`, "inlineEndpoint.mode", "SOLVER_MODE_FAST"},
		// protojson gives no position here: the body as a whole is named.
		{"UTF-16 escape of a lone surrogate", computePath, `{"items": [{"id": "\ud800"}]}`, "body", "cannot be read as the request message: unexpected EOF"},
		{"not JSON", computePath, `{"items": [x]}`, "body", "not valid JSON: invalid character 'x'"},
		{"truncated", computePath, `{"items": [`, "body", "not valid JSON: the body ends inside a value"},
		// A body holds one request: what follows it is not dropped unread.
		{"bytes after the value", computePath, `{"items": [], "budgets": []} xyz`, "body", "holds more after its JSON value, which ends at byte 28"},
		{"a second value", computePath, `{"items": [], "budgets": []}{"foo": 1}`, "body", "holds more after its JSON value, which ends at byte 28"},
		{"a closing brace too many", computePath, `{"items": [], "budgets": []}}`, "body", "holds more after its JSON value"},
		{"a cut-off literal after the value", computePath, `{"items": [], "budgets": []} tr`, "body", "holds more after its JSON value"},
		{"a cut-off string after the value", computePath, `{"items": [], "budgets": []} "ab`, "body", "holds more after its JSON value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, raw := f.call(t, http.MethodPost, tt.path, tt.body, nil)
			if code != http.StatusBadRequest {
				t.Fatalf("HTTP %d, want 400: %s", code, raw)
			}
			st := decode(t, raw, &spb.Status{})
			if codes.Code(st.GetCode()) != codes.InvalidArgument {
				t.Fatalf("status = %v, want InvalidArgument", st)
			}
			violations := grpcerr.FieldViolations(status.ErrorProto(st))
			if len(violations) != 1 {
				t.Fatalf("violations = %v, want one: %s", violations, raw)
			}
			v := violations[0]
			if v.GetField() != tt.wantField || !strings.Contains(v.GetDescription(), tt.wantText) {
				t.Errorf("violation = %s: %q, want %s: …%q…", v.GetField(), v.GetDescription(), tt.wantField, tt.wantText)
			}
			if want := "invalid argument: " + v.GetField() + ": " + v.GetDescription(); st.GetMessage() != want {
				t.Errorf("message = %q, want %q", st.GetMessage(), want)
			}
		})
	}
}
