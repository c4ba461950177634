package llmtest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// CompletionsPath is the Chat Completions path; the Batch API paths are in
// batch.go.
const CompletionsPath = "/v1/chat/completions"

// Recorded is one request as the server received it.
type Recorded struct {
	// Method and Path of the request.
	Method, Path string
	// Header holds the request headers; the value of Authorization, when
	// present, is replaced by "REDACTED".
	Header http.Header
	// Authorized says the Authorization header matched the server's API
	// key (always true when the server has none).
	Authorized bool
	// Body is the request body, byte for byte.
	Body []byte
	// Received is when the request arrived.
	Received time.Time
}

// Reply is what the server answers to one request.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Header is added to the response; Content-Type defaults to
	// application/json.
	Header http.Header
	// Body is sent verbatim.
	Body []byte
	// Delay is waited before answering, on top of the server's latency.
	Delay time.Duration
	// Hang makes the server never answer: it holds the request until the
	// client gives up or the server closes.
	Hang bool
}

// Handler decides the reply to the n-th request (0-based, in order of
// arrival) once the script is used up. A line of a batch is a request too,
// with n its 0-based position in its input file. Requests are served
// concurrently and the handler runs outside the server's lock: state it
// shares across calls needs its own.
type Handler func(n int, r Recorded) Reply

// Option configures a Server.
type Option func(*Server)

// WithLatency delays every reply by d.
func WithLatency(d time.Duration) Option { return func(s *Server) { s.latency = d } }

// WithHandler sets the handler used once the script is used up.
func WithHandler(h Handler) Option { return func(s *Server) { s.handler = h } }

// WithScript sets the replies of the first requests, in order.
func WithScript(replies ...Reply) Option { return func(s *Server) { s.script = replies } }

// WithAPIKey makes the server answer 401 to requests without
// "Authorization: Bearer key", as providers do.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// WithoutLog keeps no request bodies (Count and MaxInFlight still work),
// for benchmarks.
func WithoutLog() Option { return func(s *Server) { s.noLog = true } }

// Server is the fake provider. Its methods are safe for concurrent use.
type Server struct {
	srv     *httptest.Server
	closing chan struct{}
	once    sync.Once

	latency time.Duration
	handler Handler
	apiKey  string
	noLog   bool
	models  map[string]bool // nil: every model is served
	now     func() time.Time

	batch batchState // the Batch API (batch.go)

	mu     sync.Mutex
	script []Reply
	log    []Recorded
	count  int

	inFlight, maxInFlight atomic.Int64
}

// NewServer starts a server and closes it when tb's test ends.
func NewServer(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	s := &Server{closing: make(chan struct{}), handler: func(int, Recorded) Reply { return OK("ok") }, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.Close)
	return s
}

// URL returns the API base URL, ending in "/v1".
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Requests returns a copy of the request log, in order of arrival.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.log...)
}

// Count returns how many requests arrived.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// MaxInFlight returns the largest number of requests served at once.
func (s *Server) MaxInFlight() int { return int(s.maxInFlight.Load()) }

// Close releases hanging requests and shuts the server down.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closing)
		s.srv.Close()
	})
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxInFlight.Load()
		if n <= m || s.maxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	if isBatchPath(r.URL.Path) {
		s.serveBatchAPI(w, r)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != CompletionsPath {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	rec := Recorded{
		Method:     r.Method,
		Path:       r.URL.Path,
		Header:     r.Header.Clone(),
		Authorized: s.apiKey == "" || r.Header.Get("Authorization") == "Bearer "+s.apiKey,
		Body:       body,
		Received:   time.Now(),
	}
	if _, ok := rec.Header["Authorization"]; ok {
		rec.Header.Set("Authorization", "REDACTED")
	}
	reply := s.next(rec)
	if !s.wait(r, s.latency+reply.Delay) {
		return
	}
	if reply.Hang {
		s.wait(r, -1)
		return
	}
	for k, vs := range reply.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = w.Write(reply.Body) // a client that hung up sees its own error
}

// WithClock sets the clock that moves batches through their statuses
// (default time.Now).
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// next logs rec and picks its reply.
func (s *Server) next(rec Recorded) Reply {
	s.mu.Lock()
	n := s.count
	s.count++
	if !s.noLog {
		s.log = append(s.log, rec)
	}
	return s.pick(n, rec)
}

// pick chooses the reply to the n-th request rec; s.mu is held and is
// released.
func (s *Server) pick(n int, rec Recorded) Reply {
	if !rec.Authorized {
		s.mu.Unlock()
		return Unauthorized()
	}
	if model, unknown := s.unknownModel(rec.Body); unknown {
		s.mu.Unlock()
		return ModelNotFound(model)
	}
	if len(s.script) > 0 {
		reply := s.script[0]
		s.script = s.script[1:]
		s.mu.Unlock()
		return reply
	}
	h := s.handler
	s.mu.Unlock()
	return h(n, rec)
}

// wait sleeps d (forever when d < 0) and reports false if the client went
// away or the server closed first.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d == 0 {
		return true
	}
	var timeout <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-timeout:
		return true
	case <-r.Context().Done():
		return false
	case <-s.closing:
		return false
	}
}
