package examples

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/cli"
	"github.com/triage-eval/triage/internal/platform/externaltest"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
)

// target is how the examples reach the server: mutual TLS and a bearer
// token, as a deployed server wants them; clientEnv passes every field to
// the examples.
type target struct {
	addr                      string
	caFile, certFile, keyFile string
	serverName, token         string
}

// clientEnv is the environment both examples read their settings from
// (examples/python/main.py and examples/node/main.js take the same
// TRIAGE_* variables).
func (c target) clientEnv() []string {
	env := []string{"TRIAGE_ADDR=" + c.addr}
	for k, v := range map[string]string{
		"TRIAGE_TLS_CA":          c.caFile,
		"TRIAGE_TLS_CERT":        c.certFile,
		"TRIAGE_TLS_KEY":         c.keyFile,
		"TRIAGE_TLS_SERVER_NAME": c.serverName,
		"TRIAGE_TOKEN":           c.token,
	} {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// exampleToken is the bearer token the examples send.
const exampleToken = "examples-token-7f3c9a"

// serveArgs are the arguments of the `triage serve` the examples call: all
// services, a fresh store, one (never called) planning endpoint so that
// ListEndpoints has something to list, TLS with client certificates from
// pki, and a token file that accepts exampleToken for every service.
func serveArgs(t *testing.T, pki *transporttest.PKI) []string {
	dir := t.TempDir()
	endpoints := filepath.Join(dir, "endpoints.json")
	if err := os.WriteFile(endpoints, []byte(`{"q": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "mode": "standard"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(exampleToken))
	tokens := filepath.Join(dir, "tokens")
	if err := os.WriteFile(tokens, []byte(hex.EncodeToString(sum[:])+" * examples\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"serve", "--listen", "127.0.0.1:0", "--store", filepath.Join(dir, "gt.db"),
		"--llm-cache", "off", "--endpoints", endpoints, "--log-level", "info",
		"--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey, "--tls-client-ca", pki.CA, "--auth-tokens", tokens}
}

// startServe runs `triage serve` in process on a loopback TCP port until the
// test ends and returns how to reach it.
func startServe(t *testing.T) target {
	t.Helper()
	pki := transporttest.New(t)
	logs := &servertest.LogBuffer{}
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: logs, Stderr: logs, Getenv: func(string) string { return "" }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cli.Run(ctx, serveArgs(t, pki), env) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	deadline := time.Now().Add(2 * time.Minute) // only catches a hang
	for time.Now().Before(deadline) {
		for _, line := range strings.Split(logs.String(), "\n") {
			var rec struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "serving" {
				return target{addr: rec.Addr, caFile: pki.CA, certFile: pki.ClientCert, keyFile: pki.ClientKey, serverName: "localhost", token: exampleToken}
			}
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v\n%s", err, logs)
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("serve never logged its address:\n%s", logs)
	return target{}
}

// dial connects Go's client to the server as the examples do; calls send
// the token with withToken.
func (c target) dial(t *testing.T) *grpc.ClientConn {
	t.Helper()
	tlsCfg, err := transport.ClientConfig(transport.ClientFiles{CA: c.caFile, Cert: c.certFile, Key: c.keyFile, ServerName: c.serverName})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(c.addr, grpc.WithTransportCredentials(credentials.NewTLS(tlsCfg)))
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// example is one example program and how to run it.
type example struct {
	name string
	// command returns the command line, or why it cannot run here.
	command func(t *testing.T, ctx context.Context, root string) (*exec.Cmd, error)
}

// examples lists the examples; root is the repository root. The Python
// example runs twice: with the checkout on PYTHONPATH, and with the
// interpreter of a virtual environment the client was pip-installed into.
func examples() []example {
	return []example{
		{"python", func(_ *testing.T, ctx context.Context, root string) (*exec.Cmd, error) {
			py, err := python(ctx, root)
			if err != nil {
				return nil, err
			}
			cmd := exec.CommandContext(ctx, py, filepath.Join(root, "examples", "python", "main.py"))
			cmd.Env = append(os.Environ(), "PYTHONPATH="+filepath.Join(root, "clients", "python"), "PYTHONIOENCODING=utf-8")
			return cmd, nil
		}},
		{"python-venv", func(t *testing.T, ctx context.Context, root string) (*exec.Cmd, error) {
			py, err := installPythonClient(t, root)
			if err != nil {
				return nil, err
			}
			cmd := exec.CommandContext(ctx, py, filepath.Join(root, "examples", "python", "main.py"))
			cmd.Dir = filepath.Dir(filepath.Dir(filepath.Dir(py))) // the venv's folder, outside the checkout
			cmd.Env = append(withoutPythonPath(os.Environ()), "PYTHONIOENCODING=utf-8")
			return cmd, nil
		}},
		{"node", func(_ *testing.T, ctx context.Context, root string) (*exec.Cmd, error) {
			node, err := exec.LookPath("node")
			if err != nil {
				return nil, err
			}
			for _, need := range []string{"clients/typescript/dist/index.js", "examples/node/node_modules/triage-client"} {
				if _, err := os.Stat(filepath.Join(root, need)); err != nil {
					return nil, fmt.Errorf("%s is missing: run `make clients-deps`", need)
				}
			}
			cmd := exec.CommandContext(ctx, node, filepath.Join(root, "examples", "node", "main.js"))
			cmd.Env = os.Environ()
			return cmd, nil
		}},
	}
}

// python returns an interpreter that imports grpc and protobuf 4.x: the
// TRIAGE_TEST_PYTHON variable, else the system's (Debian's python3-grpcio
// and python3-protobuf), else python3 on PATH.
func python(ctx context.Context, root string) (string, error) {
	var tried []string
	for _, py := range []string{os.Getenv("TRIAGE_TEST_PYTHON"), "/usr/bin/python3", "python3"} {
		if py == "" {
			continue
		}
		path, err := exec.LookPath(py)
		if err != nil {
			tried = append(tried, fmt.Sprintf("%s: %v", py, err))
			continue
		}
		out, err := exec.CommandContext(ctx, path, "-c", "import grpc, google.protobuf as p; assert p.__version__.startswith('4.'), p.__version__").CombinedOutput()
		if err != nil {
			tried = append(tried, fmt.Sprintf("%s: %s", path, lastLine(out)))
			continue
		}
		return path, nil
	}
	return "", fmt.Errorf("no Python with grpcio and protobuf 4 (apt-get install python3-grpcio python3-protobuf): %s", strings.Join(tried, "; "))
}

// pythonClientREADME holds the Python client's install commands: its one
// ```sh block.
const pythonClientREADME = "clients/python/README.md"

// installPythonClient runs the install commands of pythonClientREADME, as
// written, in a temporary folder holding a copy of clients/python (so that
// the build's files never land in the checkout), and returns the
// interpreter of the virtual environment they create. PIP_NO_INDEX=1 makes
// any download attempt an error: the commands must work offline, on
// Debian's grpcio and protobuf.
func installPythonClient(t *testing.T, root string) (string, error) {
	// The commands take seconds; the bound only catches a hang.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	const system = "/usr/bin/python3" // the interpreter the README names
	probe := "import grpc, google.protobuf as p, setuptools, wheel, ensurepip; assert p.__version__.startswith('4.'), p.__version__"
	if out, err := exec.CommandContext(ctx, system, "-c", probe).CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s cannot install the client (apt-get install python3-venv python3-setuptools python3-wheel python3-grpcio python3-protobuf): %v: %s", system, err, lastLine(out))
	}
	readme, err := os.ReadFile(filepath.Join(root, pythonClientREADME))
	if err != nil {
		return "", err
	}
	blocks := strings.Split(string(readme), "```sh\n")
	if len(blocks) != 2 {
		t.Fatalf("%s has %d ```sh blocks, want exactly one (the install commands)", pythonClientREADME, len(blocks)-1)
	}
	script := blocks[1][:strings.Index(blocks[1], "```")]
	if !strings.Contains(script, "pip install") {
		t.Fatalf("%s's ```sh block installs nothing:\n%s", pythonClientREADME, script)
	}
	dir := t.TempDir()
	src := filepath.Join(root, "clients", "python")
	err = filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, "clients", "python", rel)
		if d.IsDir() {
			if name := d.Name(); name == "build" || name == "__pycache__" || strings.HasSuffix(name, ".egg-info") {
				return filepath.SkipDir
			}
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(withoutPythonPath(os.Environ()), "PIP_NO_INDEX=1", "PIP_DISABLE_PIP_VERSION_CHECK=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s's install commands failed: %v\n%s\n%s", pythonClientREADME, err, script, out)
	}
	py := filepath.Join(dir, ".venv", "bin", "python")
	// The client must come from the environment, not from a copy on the path.
	where := exec.CommandContext(ctx, py, "-c", "import triage_client, triage.v1.oracle_pb2 as o, google.rpc.status_pb2 as s; print(triage_client.__file__); print(o.__file__); print(s.__file__)")
	where.Dir = dir
	where.Env = withoutPythonPath(os.Environ())
	out, err := where.Output()
	if err != nil {
		t.Fatalf("the installed client does not import: %v", err)
	}
	for _, f := range strings.Fields(string(out)) {
		if !strings.HasPrefix(f, filepath.Join(dir, ".venv")+string(filepath.Separator)) {
			t.Errorf("%s was imported from outside the virtual environment", f)
		}
	}
	return py, nil
}

// withoutPythonPath returns env without PYTHONPATH, PYTHONHOME and
// VIRTUAL_ENV, which would let Python find modules elsewhere.
func withoutPythonPath(env []string) []string {
	var out []string
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != "PYTHONPATH" && k != "PYTHONHOME" && k != "VIRTUAL_ENV" {
			out = append(out, kv)
		}
	}
	return out
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// TestExamples runs each example against a live server and wants the
// transcript that the same calls give over Go's client.
func TestExamples(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tgt := startServe(t)
	want := transcript(t, tgt)
	for _, ex := range examples() {
		t.Run(ex.name, func(t *testing.T) {
			// The bound only catches a hang: installing the Python client took
			// 40 s on a 2-core machine at load 10, running an example seconds.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			externaltest.Wanted(t, externaltest.Examples)
			cmd, err := ex.command(t, ctx, root)
			if err != nil {
				externaltest.Missing(t, externaltest.Examples, fmt.Sprintf("%s example cannot run: %v", ex.name, err))
			}
			cmd.Env = append(cmd.Env, tgt.clientEnv()...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", cmd, err, out, stderr.String())
			}
			if got := string(out); got != want {
				t.Errorf("output differs from the Go client's:\n--- got\n%s--- want\n%s", got, want)
			}

			// A call the server refuses (here for a wrong token) ends the
			// example with one line saying why and a non-zero exit, not a
			// stack trace.
			cmd, err = ex.command(t, ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			cmd.Env = append(append(cmd.Env, tgt.clientEnv()...), "TRIAGE_TOKEN=wrong")
			stderr.Reset()
			cmd.Stderr = &stderr
			out, err = cmd.Output()
			if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); err == nil || len(lines) != 1 ||
				!strings.HasPrefix(lines[0], "error: ") || !strings.Contains(lines[0], "UNAUTHENTICATED") {
				t.Errorf("with a wrong token: %v, stderr:\n%s\nwant a non-zero exit and one line, error: … UNAUTHENTICATED …", err, stderr.String())
			}
			if len(out) != 0 {
				t.Errorf("with a wrong token, stdout:\n%s\nwant nothing", out)
			}
		})
	}
}

// pool is the examples' pool: p4 is worth two points.
func pool() []*triagev1.GroundTruthItem {
	return []*triagev1.GroundTruthItem{
		{Id: "p1", Cost: 1200, Correct: true},
		{Id: "p2", Cost: 800, Correct: false},
		{Id: "p3", Cost: 3000, Correct: true},
		{Id: "p4", Cost: 500, Correct: true, Value: proto.Float64(2)},
	}
}

// rawPlan is the examples' messy planner answer.
const rawPlan = "Here is my plan:\n```json\n" +
	`{"plan": [{"id": "p4", "tokens": "600"}, {"id": "p1", "tokens": 1300}, ` +
	`{"id": "p9", "tokens": 50},]}` + "\n```"

// transcript makes the examples' calls over Go's client and prints the
// results as the examples do.
func transcript(t *testing.T, tgt target) string {
	t.Helper()
	conn := tgt.dial(t)
	defer conn.Close()
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+tgt.token)
	oracle := triagev1.NewOracleServiceClient(conn)
	planner := triagev1.NewPlannerServiceClient(conn)
	executor := triagev1.NewExecutorServiceClient(conn)
	var b strings.Builder
	half := &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 0.5}}

	refs, err := oracle.ComputeReferences(ctx, &triagev1.ComputeReferencesRequest{
		Items: pool(), Budgets: []*triagev1.Budget{half},
		Random: &triagev1.RandomReferenceOptions{Samples: 2000, Seed: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	ref := refs.GetReferences()[0]
	fmt.Fprintf(&b, "oracle: α=0.5 budget=%d oracle=%.4f random=%.4f±%.4f\n",
		ref.GetBudget(), ref.GetOracle().GetValue(), ref.GetRandom().GetMean(), ref.GetRandom().GetStandardError())

	ids := []string{"p1", "p2", "p3", "p4"}
	repaired, err := planner.RepairPlan(ctx, &triagev1.RepairPlanRequest{RawOutput: rawPlan, ProblemIds: ids})
	if err != nil {
		t.Fatal(err)
	}
	parsed := repaired.GetParsed()
	var steps []string
	for _, s := range parsed.GetPlan() {
		steps = append(steps, fmt.Sprintf("%s:%d", s.GetId(), s.GetTokens()))
	}
	fmt.Fprintf(&b, "planner: %s with %d fixes and %d dropped: %s\n",
		parsed.GetStatus(), len(parsed.GetFixes()), len(parsed.GetDroppedSteps()), strings.Join(steps, " "))

	scored, err := executor.ExecutePlan(ctx, &triagev1.ExecutePlanRequest{
		Pool:   &triagev1.ExecutePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: pool()}},
		Budget: half, Plan: parsed.GetPlan(),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range scored.GetResults() {
		fmt.Fprintf(&b, "executor: %s value=%.4f remaining=%d\n", r.GetRegime(), r.GetValue(), r.GetRemainingBudget())
	}

	scoring := triagev1.NewScoringServiceClient(conn)
	score, err := scoring.ScorePlan(ctx, &triagev1.ScorePlanRequest{
		Pool:    &triagev1.ScorePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: pool()}},
		Budgets: []*triagev1.Budget{half}, Plan: parsed.GetPlan(),
		Options: &triagev1.ScoringOptions{Random: &triagev1.RandomReferenceOptions{Samples: 2000, Seed: 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	at := score.GetScores()[0]
	fmt.Fprintf(&b, "scoring: α=0.5 budget=%d oracle=%.4f random=%.4f±%.4f %s\n", at.GetBudget(), at.GetOracle().GetValue(),
		at.GetRandom().GetMean(), at.GetRandom().GetStandardError(), enumName(at.GetDegeneracy().String(), "DEGENERACY_"))
	for _, r := range at.GetRegimes() {
		regret := "none"
		if r.Regret != nil {
			regret = fmt.Sprintf("%.4f", r.GetRegret())
		}
		fmt.Fprintf(&b, "scoring: %s value=%.4f eta=%.4f regret=%s\n", enumName(r.GetRegime().String(), "REGIME_"), r.GetValue(), r.GetEta(), regret)
	}
	fmt.Fprintf(&b, "scoring: computed by %s (spec %s)\n", score.GetVersion().GetProtocol(), score.GetVersion().GetSpecRevision())

	eps, err := planner.ListEndpoints(ctx, &triagev1.ListEndpointsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range eps.GetEndpoints() {
		names = append(names, fmt.Sprintf("%s (%s, %s)", e.GetName(), e.GetModel(), e.GetMode()))
	}
	if len(names) == 0 {
		names = []string{"none"}
	}
	fmt.Fprintf(&b, "planner: endpoints: %s\n", strings.Join(names, ", "))

	_, err = oracle.ComputeReferences(ctx, &triagev1.ComputeReferencesRequest{
		Items:   []*triagev1.GroundTruthItem{{Id: "", Cost: -1}},
		Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 1.5}}},
	})
	violations := grpcerr.FieldViolations(err)
	if status.Code(err) != codes.InvalidArgument || len(violations) == 0 {
		t.Fatalf("bad request: %v, want InvalidArgument with field violations", err)
	}
	fmt.Fprintf(&b, "bad request: %s with %d field violations\n", grpcCodeName(status.Code(err)), len(violations))
	for _, v := range violations {
		fmt.Fprintf(&b, "  %s: %s\n", v.GetField(), v.GetDescription())
	}
	return b.String()
}

// enumName is an enum value's name as the clients' typed results give it:
// lower case, without its prefix ("advisory" for REGIME_ADVISORY).
func enumName(name, prefix string) string {
	return strings.ToLower(strings.TrimPrefix(name, prefix))
}

// grpcCodeName is a code's name as Python and Node print it
// (INVALID_ARGUMENT, where Go prints InvalidArgument).
func grpcCodeName(c codes.Code) string {
	var out []rune
	for i, r := range c.String() {
		if i > 0 && r >= 'A' && r <= 'Z' {
			out = append(out, '_')
		}
		out = append(out, r)
	}
	return strings.ToUpper(string(out))
}
