package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
)

// preEncoded is a request already in the wire format; preEncodedCodec
// sends it as it is, without a copy, so that a test can send one 16 MiB
// request many times at once for the cost of one.
type preEncoded []byte

type preEncodedCodec struct{}

func (preEncodedCodec) Marshal(v any) (mem.BufferSlice, error) {
	if b, ok := v.(preEncoded); ok {
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	b, err := proto.Marshal(v.(proto.Message))
	return mem.BufferSlice{mem.SliceBuffer(b)}, err
}

func (preEncodedCodec) Unmarshal(data mem.BufferSlice, v any) error {
	return proto.Unmarshal(data.Materialize(), v.(proto.Message))
}

func (preEncodedCodec) Name() string { return "proto" }

// memoryCgroup puts pid in a new memory cgroup limited to limit bytes
// (cgroup v1 or v2, where this process may create one) and returns a
// function reading the group's peak usage, or nil and why not.
func memoryCgroup(t *testing.T, pid int, limit int64) (peak func() (int64, error), why error) {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	name := "triage-test-servecost-" + hex.EncodeToString(b[:])
	v1 := filepath.Join("/sys/fs/cgroup/memory", name)
	v2 := filepath.Join("/sys/fs/cgroup", name)
	try := func(dir, limitFile, peakFile string) (func() (int64, error), error) {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
		t.Cleanup(func() { os.Remove(dir) })
		if err := os.WriteFile(filepath.Join(dir, limitFile), []byte(strconv.FormatInt(limit, 10)), 0o644); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
			return nil, err
		}
		return func() (int64, error) {
			raw, err := os.ReadFile(filepath.Join(dir, peakFile))
			if err != nil {
				return 0, err
			}
			return strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64)
		}, nil
	}
	if _, err := os.Stat("/sys/fs/cgroup/memory"); err == nil {
		return try(v1, "memory.limit_in_bytes", "memory.max_usage_in_bytes")
	}
	return try(v2, "memory.max", "memory.peak")
}

// peakRSS reads the peak resident set size of pid (VmHWM).
func peakRSS(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if kb, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
			return n << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/PID/status")
}

// serveAddrs waits until a triage serve logged both its addresses.
func serveAddrs(t *testing.T, logs *servertest.LogBuffer, exited <-chan struct{}) (grpcAddr, httpAddr string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // a hang bound only
	for time.Now().Before(deadline) {
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
				grpcAddr = rec.Addr
			case "serving HTTP/JSON":
				httpAddr = rec.HTTPAddr
			}
		}
		if grpcAddr != "" && httpAddr != "" {
			return grpcAddr, httpAddr
		}
		select {
		case <-exited:
			t.Fatalf("serve exited:\n%s", logs)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("serve never logged both addresses:\n%s", logs)
	return "", ""
}

// TestUnauthenticatedRequestsCostOnlyTheirHeaders is the attack on
// a real triage serve process with tokens, in a 512 MiB memory cgroup where
// this machine lets the test make one: 64 gRPC calls and 64 HTTP requests
// of 16 MiB each, all at once, none with a token. They must all be
// refused, the server must live through them and answer a call with the
// token afterwards, and its memory must stay far below what reading the
// requests would take (64 × 16 MiB each way): a server that reads and
// decodes them before refusing them is OOM-killed in the cgroup, and
// without one its peak RSS is gigabytes.
func TestUnauthenticatedRequestsCostOnlyTheirHeaders(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a triage process and sends 2 GiB")
	}
	const (
		requests    = 64
		size        = 16<<20 - 4096 // under the default --max-message-bytes
		memoryLimit = 512 << 20
		peakBound   = 160 << 20 // the server's own memory, with room to spare
	)
	token := "servecost-token-5a1e"
	tokens := writeFile(t, "tokens.txt", server.HashToken(token)+" * servecost\n")
	logs := &servertest.LogBuffer{}
	cmd := triageCommand("serve", "--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0",
		"--auth-tokens", tokens, "--services", "oracle", "--llm-cache", "off", "--drain", "0")
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	peakCgroup, why := memoryCgroup(t, cmd.Process.Pid, memoryLimit)
	if why != nil {
		t.Logf("no memory cgroup (%v): bounding the server's peak RSS only", why)
	}
	grpcAddr, httpAddr := serveAddrs(t, logs, exited)

	// One 16 MiB request, encoded once, sent 64 times over each protocol.
	id := strings.Repeat("x", size)
	raw, err := proto.Marshal(&triagev1.ComputeReferencesRequest{Items: []*triagev1.GroundTruthItem{{Id: id, Cost: 1, Correct: true}}})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"items": [{"id": "` + id + `", "cost": 1, "correct": true}], "budgets": [{"alpha": 0.5}]}`)
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodecV2(preEncodedCodec{}), grpc.MaxCallSendMsgSize(32<<20)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a hang bound only
	defer cancel()
	httpClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1}}

	var (
		wg                  sync.WaitGroup
		mu                  sync.Mutex
		grpcCodes           = map[codes.Code]int{}
		httpCodes           = map[int]int{}
		httpErrs            []string
		computeReferencesFn = "/" + triagev1.OracleService_ServiceDesc.ServiceName + "/ComputeReferences"
	)
	for range requests {
		wg.Go(func() {
			err := conn.Invoke(ctx, computeReferencesFn, preEncoded(raw), new(triagev1.ComputeReferencesResponse))
			mu.Lock()
			grpcCodes[status.Code(err)]++
			mu.Unlock()
		})
		wg.Go(func() {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+httpAddr+"/v1/oracle:computeReferences", bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			resp, err := httpClient.Do(req)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				// The server may close the connection on the rest of a body
				// it refused before the client reads the answer.
				httpErrs = append(httpErrs, err.Error())
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			httpCodes[resp.StatusCode]++
		})
	}
	wg.Wait()
	select {
	case <-exited:
		t.Fatalf("the server died under %d unauthenticated requests of 16 MiB (%v):\n%.2000s", 2*requests, waitErr, logs)
	default:
	}
	t.Logf("gRPC answers %v; HTTP answers %v and %d connections closed on the unread body", grpcCodes, httpCodes, len(httpErrs))
	if grpcCodes[codes.Unauthenticated] != requests {
		t.Errorf("gRPC answers %v, want all %d Unauthenticated", grpcCodes, requests)
	}
	if httpCodes[http.StatusUnauthorized]+len(httpErrs) != requests || httpCodes[http.StatusUnauthorized] == 0 {
		t.Errorf("HTTP answers %v and %d connection errors (%q), want every request refused 401", httpCodes, len(httpErrs), httpErrs)
	}

	// Alive, and serving a caller with the token.
	withToken := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
	if resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health after the attack: %v, %v", resp, err)
	}
	small := &triagev1.ComputeReferencesRequest{Items: []*triagev1.GroundTruthItem{{Id: "a", Cost: 1, Correct: true}}, Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 1}}}}
	if _, err := triagev1.NewOracleServiceClient(conn).ComputeReferences(withToken, small); err != nil {
		t.Errorf("a call with the token after the attack: %v", err)
	}

	rss, err := peakRSS(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("server peak RSS %d MiB (bound %d MiB)", rss>>20, peakBound>>20)
	if rss > peakBound {
		t.Errorf("the server's peak RSS was %d MiB, want under %d MiB: it read what it refused", rss>>20, peakBound>>20)
	}
	if peakCgroup != nil {
		if used, err := peakCgroup(); err != nil {
			t.Errorf("cgroup peak: %v", err)
		} else {
			t.Logf("cgroup peak usage %d MiB (limit %d MiB)", used>>20, memoryLimit>>20)
		}
	}
}
