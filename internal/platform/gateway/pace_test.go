package gateway

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// deadlineRecorder is a ResponseWriter that records the read deadlines
// http.ResponseController sets on it.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	deadlines []time.Time
}

func (d *deadlineRecorder) SetReadDeadline(t time.Time) error {
	d.deadlines = append(d.deadlines, t)
	return nil
}

// scriptedBody returns its chunks one read at a time, then err.
type scriptedBody struct {
	chunks []string
	err    error
}

func (b *scriptedBody) Read(p []byte) (int, error) {
	if len(b.chunks) == 0 {
		return 0, b.err
	}
	n := copy(p, b.chunks[0])
	b.chunks = b.chunks[1:]
	return n, nil
}

func (b *scriptedBody) Close() error { return nil }

// TestPaceDeadlines: the read waiting for byte n+1 of a body must end by
// start + grace + (n+1)/rate, never past the call's own deadline, which
// comes back when the body ends; a read that misses its deadline marks the
// body slow, and only then, and keeps the passed deadline (the server must
// not wait for the rest of a body too slow).
func TestPaceDeadlines(t *testing.T) {
	start := time.Unix(1000, 0)
	until := start.Add(time.Hour)
	sec := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	tests := []struct {
		name  string
		rate  int64
		until time.Time
		body  *scriptedBody
		want  []time.Time
		slow  bool
	}{
		{"fast body", 100, until, &scriptedBody{chunks: []string{"0123456789", "abcde"}, err: io.EOF},
			[]time.Time{sec(10.01), sec(10.11), sec(10.16), until}, false},
		{"capped by the call's deadline", 1, sec(12), &scriptedBody{chunks: []string{"0123456789"}, err: io.EOF},
			[]time.Time{sec(11), sec(12), sec(12)}, false},
		{"too slow", 100, until, &scriptedBody{chunks: []string{"0123"}, err: os.ErrDeadlineExceeded},
			[]time.Time{sec(10.01), sec(10.05)}, true},
		{"the call's own deadline is not the pace's", 1, sec(10.5), &scriptedBody{err: os.ErrDeadlineExceeded},
			[]time.Time{sec(10.5), sec(10.5)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
			p := &pace{rc: http.NewResponseController(w), start: start, grace: 10 * time.Second, rate: tc.rate, until: tc.until}
			r := httptest.NewRequest(http.MethodPost, "/", nil)
			r.Body = tc.body
			r = capBody(w, r, 1<<20, p)
			_, _ = io.ReadAll(r.Body)
			if len(w.deadlines) != len(tc.want) {
				t.Fatalf("deadlines %v, want %v", w.deadlines, tc.want)
			}
			for i := range tc.want {
				if !w.deadlines[i].Equal(tc.want[i]) {
					t.Errorf("deadline %d = %v, want %v", i, w.deadlines[i].Sub(start), tc.want[i].Sub(start))
				}
			}
			if p.slow != tc.slow {
				t.Errorf("slow = %v, want %v", p.slow, tc.slow)
			}
		})
	}
}

// TestSlowBodyIsCutOff: a client that sends its headers and part of its
// body, then nothing, is answered HTTP 408 with a DEADLINE_EXCEEDED status
// once the grace period and the pace have passed; the same request sent
// whole is served. The bounds are small; the wait is bounded only to catch
// a hang.
func TestSlowBodyIsCutOff(t *testing.T) {
	cfg := ServerConfig{MaxBodyBytes: 1 << 20, MinBodyRate: 1000, BodyGrace: 100 * time.Millisecond}
	mux := runtime.NewServeMux()
	srv := httptest.NewServer(cfg.bound(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b, err := io.ReadAll(r.Body); err != nil {
			errorHandler(r.Context(), mux, Marshaler(), w, r, status.Error(codes.InvalidArgument, err.Error()))
		} else {
			fmt.Fprintf(w, "read %d bytes", len(b))
		}
	})))
	defer srv.Close()

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute)) // a hang bound only
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n%s", strings.Repeat("x", 50))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), `"code":4`) || !strings.Contains(string(body), "request body too slow") {
		t.Errorf("trickled body: HTTP %d %s, want 408 with DEADLINE_EXCEEDED", resp.StatusCode, body)
	}

	resp, err = http.Post(srv.URL, "text/plain", strings.NewReader(strings.Repeat("y", 50)))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "read 50 bytes" {
		t.Errorf("whole body: HTTP %d %s", resp.StatusCode, body)
	}
}
