package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/google/go-cmp/cmp"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/externaltest"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
)

// servedHTTP is a `triage serve --http-listen` running in process.
type servedHTTP struct {
	grpcAddr, httpAddr string
	logs               *servertest.LogBuffer
	stop               func() error // cancels serve and returns its error
}

// startServeHTTP runs `triage serve` with args plus --http-listen on
// loopback ports until the test ends.
func startServeHTTP(t *testing.T, args ...string) *servedHTTP {
	t.Helper()
	env, _, logs := testEnv(map[string]string{"TRIAGE_LISTEN": "127.0.0.1:0", "TRIAGE_HTTP_LISTEN": "127.0.0.1:0",
		"TRIAGE_SHUTDOWN_GRACE": "2s", "TRIAGE_DRAIN": "0", "TRIAGE_LLM_CACHE": "off", "TRIAGE_STORE": filepath.Join(t.TempDir(), "gt.db")})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, append([]string{"serve"}, args...), env) }()
	var stopped bool
	var stopErr error
	s := &servedHTTP{logs: logs}
	s.stop = func() error {
		if !stopped {
			stopped = true
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(2 * time.Minute): // only catches a hang
				stopErr = errors.New("serve did not stop")
			}
		}
		return stopErr
	}
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	deadline := time.Now().Add(2 * time.Minute) // only catches a hang
	for time.Now().Before(deadline) && (s.grpcAddr == "" || s.httpAddr == "") {
		for _, line := range strings.Split(logs.String(), "\n") {
			var rec struct {
				Msg, Addr string
				HTTPAddr  string `json:"http_addr"`
			}
			if json.Unmarshal([]byte(line), &rec) != nil {
				continue
			}
			switch rec.Msg {
			case "serving":
				s.grpcAddr = rec.Addr
			case "serving HTTP/JSON":
				s.httpAddr = rec.HTTPAddr
			}
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v\n%s", err, logs)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if s.grpcAddr == "" || s.httpAddr == "" {
		t.Fatalf("serve never logged both addresses:\n%s", logs)
	}
	return s
}

// curlExample is one curl command of the documentation with the answer
// shown under it.
type curlExample struct {
	command string // the shell command
	path    string // the URL path it posts to
	body    string // its -d argument
	shown   string // the answer as the documentation shows it, "…" for what it leaves out
}

// curlSections are the sections whose curl examples are run: the README's
// one, and the four of the HTTP/JSON page.
var curlSections = []struct{ file, heading string }{
	{"README.md", "## Use it as a service"},
	{filepath.Join("docs", "api", "http.md"), "# HTTP/JSON"},
}

// readmeCurlExamples returns the curl examples of curlSections.
func readmeCurlExamples(t *testing.T) []curlExample {
	t.Helper()
	var out []curlExample
	for _, s := range curlSections {
		out = append(out, curlExamples(t, s.file, s.heading)...)
	}
	return out
}

// curlExamples returns the curl examples of one section of a Markdown file
// (up to the next heading of level 2 or higher).
func curlExamples(t *testing.T, file, heading string) []curlExample {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", file))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, heading+"\n")
	if start < 0 {
		t.Fatalf("%s has no section %q", file, heading)
	}
	section := text[start+len(heading):]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end+1]
	}
	var out []curlExample
	for _, block := range strings.Split(section, "```sh\n")[1:] {
		block = block[:strings.Index(block, "```")]
		if !strings.HasPrefix(block, "curl ") {
			continue
		}
		var cmd, shown []string
		for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
			if rest, ok := strings.CutPrefix(line, "#"); ok {
				shown = append(shown, strings.TrimSpace(rest))
			} else {
				cmd = append(cmd, line)
			}
		}
		ex := curlExample{command: strings.Join(cmd, "\n"), shown: strings.Join(shown, "")}
		fields := strings.Fields(ex.command)
		for _, f := range fields {
			if u, ok := strings.CutPrefix(f, "http://127.0.0.1:8080"); ok {
				ex.path = u
			}
		}
		if i := strings.Index(ex.command, "-d '"); i >= 0 {
			rest := ex.command[i+len("-d '"):]
			ex.body = rest[:strings.Index(rest, "'")]
		}
		if ex.path == "" || ex.body == "" || ex.shown == "" {
			t.Fatalf("%s: curl example without a URL on 127.0.0.1:8080, a -d body or a shown answer:\n%s", file, block)
		}
		out = append(out, ex)
	}
	return out
}

// matchesShown reports whether got fits shown: every part of shown between
// two "…" appears in got, in order. Whitespace is ignored on both sides
// (protojson varies it on purpose).
func matchesShown(got, shown string) bool {
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	got = squeeze(got)
	for _, part := range strings.Split(squeeze(shown), "…") {
		i := strings.Index(got, part)
		if i < 0 {
			return false
		}
		got = got[i+len(part):]
	}
	return true
}

// grpcCall makes over gRPC the call an HTTP path maps to, with the request
// read from its JSON body.
func grpcCall(ctx context.Context, conn grpc.ClientConnInterface, path, body string) (proto.Message, error) {
	switch path {
	case "/v1/oracle:computeReferences":
		req := &triagev1.ComputeReferencesRequest{}
		if err := protojson.Unmarshal([]byte(body), req); err != nil {
			return nil, err
		}
		return triagev1.NewOracleServiceClient(conn).ComputeReferences(ctx, req)
	case "/v1/executor:executePlan":
		req := &triagev1.ExecutePlanRequest{}
		if err := protojson.Unmarshal([]byte(body), req); err != nil {
			return nil, err
		}
		return triagev1.NewExecutorServiceClient(conn).ExecutePlan(ctx, req)
	case "/v1/planner:repairPlan":
		req := &triagev1.RepairPlanRequest{}
		if err := protojson.Unmarshal([]byte(body), req); err != nil {
			return nil, err
		}
		return triagev1.NewPlannerServiceClient(conn).RepairPlan(ctx, req)
	}
	return nil, errors.New("no gRPC call known for " + path)
}

// TestReadmeCurlExamples runs the curl examples of the README and of
// docs/api/http.md, as written but for the address, against a live `triage
// serve --http-listen`: each answer must fit what the page shows and equal
// what gRPC answers to the same request
// (what grpcurl would print), and the bad request's HTTP 400 must carry the
// field violations gRPC's InvalidArgument carries.
func TestReadmeCurlExamples(t *testing.T) {
	externaltest.Wanted(t, externaltest.Examples)
	curl, err := exec.LookPath("curl")
	if err != nil {
		externaltest.Missing(t, externaltest.Examples, "curl is not installed (apt-get install curl)")
	}
	examples := readmeCurlExamples(t)
	if len(examples) < 5 {
		t.Fatalf("found %d curl examples, want the README's one and the four of docs/api/http.md", len(examples))
	}
	srv := startServeHTTP(t)
	conn, err := grpc.NewClient(srv.grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, ex := range examples {
		t.Run(ex.path, func(t *testing.T) {
			command := strings.ReplaceAll(ex.command, "http://127.0.0.1:8080", "http://"+srv.httpAddr)
			command = strings.Replace(command, "curl ", curl+" -w '\\n%{http_code}' ", 1)
			out, err := exec.Command("bash", "-c", command).Output()
			if err != nil {
				t.Fatalf("%s: %v", command, err)
			}
			got, code, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
			if !matchesShown(got, ex.shown) {
				t.Errorf("answer does not fit the one shown:\ngot   %s\nshown %s", got, ex.shown)
			}
			want, grpcErr := grpcCall(context.Background(), conn, ex.path, ex.body)
			if grpcErr != nil {
				if code != "400" {
					t.Errorf("HTTP %s; gRPC refused the same request: %v", code, grpcErr)
				}
				var httpStatus struct {
					Code    int
					Details []json.RawMessage
				}
				// The BadRequest, then the server's version stamp.
				if err := json.Unmarshal([]byte(got), &httpStatus); err != nil || len(httpStatus.Details) != 2 || !strings.Contains(string(httpStatus.Details[1]), "triage.v1.VersionStamp") {
					t.Fatalf("HTTP error %s is not a google.rpc.Status with a BadRequest and a version stamp: %v", got, err)
				}
				br := &errdetails.BadRequest{}
				var detail map[string]json.RawMessage
				_ = json.Unmarshal(httpStatus.Details[0], &detail)
				delete(detail, "@type")
				raw, _ := json.Marshal(detail)
				if err := protojson.Unmarshal(raw, br); err != nil {
					t.Fatalf("detail %s: %v", httpStatus.Details[0], err)
				}
				st := status.Convert(grpcErr)
				if httpStatus.Code != int(st.Code()) || len(st.Details()) != 2 {
					t.Fatalf("HTTP code %d vs gRPC %v with %d details", httpStatus.Code, st.Code(), len(st.Details()))
				}
				if diff := cmp.Diff(st.Details()[0], br, protocmp.Transform()); diff != "" {
					t.Errorf("field violations differ between HTTP and gRPC (-grpc +http):\n%s", diff)
				}
				return
			}
			if code != "200" {
				t.Fatalf("HTTP %s for a request gRPC answers: %s", code, got)
			}
			gotMsg := want.ProtoReflect().New().Interface()
			if err := protojson.Unmarshal([]byte(got), gotMsg); err != nil {
				t.Fatalf("answer %s: %v", got, err)
			}
			if diff := cmp.Diff(want, gotMsg, protocmp.Transform()); diff != "" {
				t.Errorf("HTTP and gRPC answers differ (-grpc +http):\n%s", diff)
			}
		})
	}
}

// TestServeHTTPSecurity puts the HTTP listener behind the gRPC listener's
// mutual TLS and tokens, and checks its own bounds and probes.
func TestServeHTTPSecurity(t *testing.T) {
	pki := transporttest.New(t)
	token, plannerToken := "http-token-1", "http-token-planner"
	hash := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	tokens := writeFile(t, "tokens", hash(token)+" * all\n"+hash(plannerToken)+" planner planner-only\n")
	srv := startServeHTTP(t, "--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey, "--tls-client-ca", pki.CA,
		"--auth-tokens", tokens, "--max-message-bytes", "65536", "--drain", "5s")

	client := func(t *testing.T, withCert bool) *http.Client {
		files := transport.ClientFiles{CA: pki.CA, ServerName: "localhost"}
		if withCert {
			files.Cert, files.Key = pki.ClientCert, pki.ClientKey
		}
		cfg, err := transport.ClientConfig(files)
		if err != nil {
			t.Fatal(err)
		}
		return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}}
	}
	withCert := client(t, true)
	do := func(t *testing.T, c *http.Client, method, path, bearer, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, "https://"+srv.httpAddr+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	refs := `{"items": [{"id": "p1", "cost": 100, "correct": true}], "budgets": [{"alpha": 0.5}]}`

	tests := []struct {
		name         string
		method, path string
		bearer, body string
		wantCode     int
		wantIn       string
	}{
		{"no token", http.MethodPost, "/v1/oracle:computeReferences", "", refs, http.StatusUnauthorized, `"code":16`},
		{"wrong token", http.MethodPost, "/v1/oracle:computeReferences", "nope", refs, http.StatusUnauthorized, `"code":16`},
		{"token not granted the service", http.MethodPost, "/v1/oracle:computeReferences", plannerToken, refs, http.StatusForbidden, `"code":7`},
		{"token granted", http.MethodPost, "/v1/oracle:computeReferences", token, refs, http.StatusOK, `"totalValue":1`},
		{"planner-only token on the planner", http.MethodGet, "/v1/planner/endpoints", plannerToken, "", http.StatusOK, `"endpoints"`},
		{"body over --max-message-bytes", http.MethodPost, "/v1/oracle:computeReferences", token, `{"items": [` + strings.Repeat(`{"id": "p", "cost": 1, "correct": true},`, 3000) + `{}]}`, http.StatusRequestEntityTooLarge, `"code":8,"message":"request body too large: more than 65536 bytes"`},
		{"health needs no token", http.MethodGet, "/healthz", "", "", http.StatusOK, `"SERVING"`},
		{"one service's health", http.MethodGet, "/healthz?service=triage.v1.OracleService", "", "", http.StatusOK, `"SERVING"`},
		{"the OpenAPI document needs a token, as reflection does", http.MethodGet, "/openapi.json", "", "", http.StatusUnauthorized, `"code":16`},
		{"the OpenAPI document with any valid token", http.MethodGet, "/openapi.json", plannerToken, "", http.StatusOK, `"swagger": "2.0"`},
		{"no token, body not read", http.MethodPost, "/v1/oracle:computeReferences", "", `{"items": [` + strings.Repeat(`{"id": "p", "cost": 1, "correct": true},`, 3000) + `{}]}`, http.StatusUnauthorized, `"code":16`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, body := do(t, withCert, tc.method, tc.path, tc.bearer, tc.body)
			if code != tc.wantCode || !strings.Contains(strings.Join(strings.Fields(body), ""), strings.Join(strings.Fields(tc.wantIn), "")) {
				t.Errorf("HTTP %d %.300s, want %d with %s", code, body, tc.wantCode, tc.wantIn)
			}
			// Every error carries the server's version stamp (SPEC §10),
			// those the gateway answers itself (401, 403, 413) included.
			if code >= 400 && !strings.Contains(body, `"@type":"type.googleapis.com/triage.v1.VersionStamp"`) {
				t.Errorf("HTTP %d %.300s has no version stamp", code, body)
			}
		})
	}

	t.Run("no client certificate", func(t *testing.T) {
		_, err := client(t, false).Get("https://" + srv.httpAddr + "/healthz")
		if err == nil {
			t.Fatal("a client without a certificate was served")
		}
	})
	t.Run("plaintext to the TLS port", func(t *testing.T) {
		resp, err := http.Get("http://" + srv.httpAddr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				t.Fatal("plaintext HTTP was served on the TLS listener")
			}
		}
	})
	if logs := srv.logs.String(); strings.Contains(logs, token) || strings.Contains(logs, hash(token)) {
		t.Error("the log holds the token or its hash")
	}
	// Every request refused for its token is logged, as on the gRPC port,
	// and every line names the HTTP client, not the gateway's in-memory
	// connection (neither was so before).
	refused, served := 0, 0
	for line := range strings.Lines(srv.logs.String()) {
		if strings.Contains(line, `"peer.address":"bufconn"`) {
			t.Errorf("a log line names the in-memory connection, not the HTTP client: %s", line)
		}
		if !strings.Contains(line, `"peer.address":"127.0.0.1`) {
			continue
		}
		switch {
		case strings.Contains(line, `"protocol":"http"`) && strings.Contains(line, `"refused_before_read":true`):
			refused++
		case strings.Contains(line, `"grpc.method":"ComputeReferences"`) && strings.Contains(line, `"grpc.code":"OK"`):
			served++
		}
	}
	if refused != 5 || served == 0 {
		t.Errorf("the log has %d refused HTTP requests naming their client (want 5) and %d served ComputeReferences calls naming it (want some):\n%s", refused, served, srv.logs)
	}

	t.Run("drain", func(t *testing.T) {
		stopped := make(chan error, 1)
		go func() { stopped <- srv.stop() }()
		deadline := time.Now().Add(time.Minute) // only catches a hang
		for {
			code, body := do(t, withCert, http.MethodGet, "/healthz", "", "")
			if code == http.StatusServiceUnavailable {
				break // draining: probes see it leave
			}
			if time.Now().After(deadline) {
				t.Fatalf("health still HTTP %d %s during the drain", code, body)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if code, body := do(t, withCert, http.MethodPost, "/v1/oracle:computeReferences", token, refs); code != http.StatusOK {
			t.Errorf("a call during the drain: HTTP %d %s, want it served", code, body)
		}
		if err := <-stopped; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
}

// TestServeHTTPRefusesPlaintextOnTheNetwork: --http-listen follows --listen's
// rule, plaintext only on loopback unless --insecure.
func TestServeHTTPRefusesPlaintextOnTheNetwork(t *testing.T) {
	env, _, _ := testEnv(map[string]string{"TRIAGE_LLM_CACHE": "off", "TRIAGE_STORE": filepath.Join(t.TempDir(), "gt.db")})
	err := Run(context.Background(), []string{"serve", "--services", "oracle", "--listen", "127.0.0.1:0", "--http-listen", "0.0.0.0:0"}, env)
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "--http-listen") {
		t.Fatalf("err = %v, want a usage error naming --http-listen", err)
	}
}

// TestServeHTTPImportOverCap: an import body over --http-max-import-bytes is
// answered HTTP 413 with a RESOURCE_EXHAUSTED status naming the cap, and
// stores nothing, although its first messages were forwarded before the cap
// was reached; the same records under the cap are stored.
func TestServeHTTPImportOverCap(t *testing.T) {
	const limit = 4096
	srv := startServeHTTP(t, "--max-message-bytes", "2048", "--http-max-import-bytes", strconv.Itoa(limit))
	post := func(body string) (int, string) {
		t.Helper()
		resp, err := http.Post("http://"+srv.httpAddr+"/v1/ground-truth:import", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}
	stored := func() int {
		t.Helper()
		resp, err := http.Get("http://" + srv.httpAddr + "/v1/ground-truth?pageSize=1000")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var list struct{ Records []json.RawMessage }
		if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("list: HTTP %d, %v", resp.StatusCode, err)
		}
		return len(list.Records)
	}
	message := func(first, n int) string {
		var recs []string
		for i := first; i < first+n; i++ {
			recs = append(recs, fmt.Sprintf(`{"solver": {"model": "m", "mode": "SOLVER_MODE_STANDARD"}, "dataset": "aime", "problemId": "%d", "cost": "100", "correct": true, "gradeable": true}`, i))
		}
		return `{"records": [` + strings.Join(recs, ", ") + "]}\n"
	}
	var over strings.Builder
	for i := 0; over.Len() <= limit; i += 5 {
		over.WriteString(message(i, 5))
	}
	code, out := post(over.String())
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(out, `"code":8`) || !strings.Contains(out, fmt.Sprintf("more than %d bytes", limit)) {
		t.Errorf("import of %d bytes: HTTP %d %s, want 413, code 8 and the cap", over.Len(), code, out)
	}
	if n := stored(); n != 0 {
		t.Errorf("a refused import stored %d records", n)
	}
	if code, out := post(message(0, 5) + message(5, 5)); code != http.StatusOK {
		t.Fatalf("import under the cap: HTTP %d %s", code, out)
	}
	if n := stored(); n != 10 {
		t.Errorf("stored %d records after an import of 10", n)
	}
}

// TestServeHTTPLogsWhatTheGatewayAnswers: a request the gateway answers
// itself, making no call of it — a body it cannot decode or holding more
// than one value, an unknown query parameter, a body over its cap — is
// logged as a call is: one "finished call" line with its method, code and
// HTTP client, marked answered_by_gateway (before, no line at all).
func TestServeHTTPLogsWhatTheGatewayAnswers(t *testing.T) {
	srv := startServeHTTP(t, "--max-message-bytes", "2048")
	base := "http://" + srv.httpAddr
	for _, tc := range []struct {
		method, path, body string
		want               int
	}{
		{http.MethodPost, "/v1/oracle:computeReferences", `{"items": [x]}`, http.StatusBadRequest},
		{http.MethodPost, "/v1/scoring:scorePlan", `{"plan": []} {"plan": []}`, http.StatusBadRequest},
		{http.MethodGet, "/v1/planner/endpoints?colour=red", "", http.StatusBadRequest},
		{http.MethodPost, "/v1/executor:executePlan", `{"plan": [` + strings.Repeat(`{"id": "p", "tokens": 1}, `, 200) + `]}`, http.StatusRequestEntityTooLarge},
		// An import's call is made before its body is read: the server
		// logs it, and the gateway does not log it again.
		{http.MethodPost, "/v1/ground-truth:import", `{"records": [x]}`, http.StatusBadRequest},
	} {
		req, err := http.NewRequest(tc.method, base+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s: HTTP %d, want %d", tc.method, tc.path, resp.StatusCode, tc.want)
		}
	}
	want := map[string]string{
		"ComputeReferences": "InvalidArgument",
		"ScorePlan":         "InvalidArgument",
		"ListEndpoints":     "InvalidArgument",
		"ExecutePlan":       "ResourceExhausted",
	}
	for line := range strings.Lines(srv.logs.String()) {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["answered_by_gateway"] != true {
			continue
		}
		method, _ := rec["grpc.method"].(string)
		if method == "ImportGroundTruth" {
			t.Errorf("the gateway logged the import, whose call the server logs: %s", strings.TrimSpace(line))
		}
		peerAddr, _ := rec["peer.address"].(string)
		if rec["msg"] != "finished call" || rec["protocol"] != "http" || rec["grpc.code"] != want[method] || !strings.HasPrefix(peerAddr, "127.0.0.1:") {
			t.Errorf("line %s: want a finished call over http, code %s, from 127.0.0.1", strings.TrimSpace(line), want[method])
		}
		delete(want, method)
	}
	if len(want) != 0 {
		t.Errorf("no answered_by_gateway line for %v:\n%s", want, srv.logs)
	}
}
