package llmtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The Batch API paths the server answers (OpenAI API reference: Files,
// Batch).
const (
	// FilesPath is POST (upload), and FilesPath/{id}/content GET.
	FilesPath = "/v1/files"
	// BatchesPath is POST (create), and BatchesPath/{id} GET.
	BatchesPath = "/v1/batches"
	// batchEndpoint is the one endpoint a batch may target.
	batchEndpoint = CompletionsPath
	// maxUploadBytes bounds an uploaded file, as OpenAI bounds a batch
	// input file (200 MB).
	maxUploadBytes = 200_000_000
)

// BatchBehavior says how the server runs a batch: how long it stays in
// each status, by the server's clock (WithClock), and how it ends.
type BatchBehavior struct {
	// Validating, InProgress and Finalizing are how long a batch stays in
	// each status.
	Validating, InProgress, Finalizing time.Duration
	// End is the final status: "" or "completed" (every line answered),
	// "expired" (the first Answered lines answered, the others in the
	// error file with code batch_expired), "cancelled" (likewise, code
	// batch_cancelled) or "failed" (the batch fails validation, with
	// errors.data, and answers nothing).
	End      string
	Answered int
	// Tamper, when set, rewrites every output file before it is served,
	// as a hostile or broken provider could.
	Tamper func(output []byte) []byte
}

// WithBatch sets how batches run; by default each status lasts a minute
// and every batch completes.
func WithBatch(b BatchBehavior) Option { return func(s *Server) { s.batch.behavior = b } }

// batchState is the server's files and batches.
type batchState struct {
	behavior BatchBehavior
	mu       sync.Mutex
	next     int
	files    map[string]*storedFile
	batches  map[string]*runBatch
	calls    []Recorded // Batch API requests, bodies included
}

type storedFile struct {
	id, name, purpose string
	data              []byte
	created           time.Time
}

// runBatch is one batch: its input lines and, once they were answered,
// its output and error files.
type runBatch struct {
	id, inputFileID string
	created         time.Time
	lines           []inputLine
	invalid         []map[string]any // validation errors: the batch fails
	answered        bool
	outputFileID    string
	errorFileID     string
	completed       int
	failed          int
}

type inputLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// BatchCalls returns the Batch API requests received (uploads, creations,
// polls, downloads), in order; their Authorization is redacted.
func (s *Server) BatchCalls() []Recorded {
	s.batch.mu.Lock()
	defer s.batch.mu.Unlock()
	return append([]Recorded(nil), s.batch.calls...)
}

// BatchSubmissions counts the batches created.
func (s *Server) BatchSubmissions() int {
	s.batch.mu.Lock()
	defer s.batch.mu.Unlock()
	return len(s.batch.batches)
}

func isBatchPath(p string) bool {
	return p == FilesPath || p == BatchesPath || strings.HasPrefix(p, FilesPath+"/") || strings.HasPrefix(p, BatchesPath+"/")
}

// serveBatchAPI answers the Files and Batch endpoints.
func (s *Server) serveBatchAPI(w http.ResponseWriter, r *http.Request) {
	rec := Recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Received: time.Now(),
		Authorized: s.apiKey == "" || r.Header.Get("Authorization") == "Bearer "+s.apiKey}
	if _, ok := rec.Header["Authorization"]; ok {
		rec.Header.Set("Authorization", "REDACTED")
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxUploadBytes+1<<20))
	if err != nil {
		return
	}
	rec.Body = body
	b := &s.batch
	b.mu.Lock()
	b.calls = append(b.calls, rec)
	b.mu.Unlock()
	var reply Reply
	switch {
	case !rec.Authorized:
		reply = Unauthorized()
	case r.Method == http.MethodPost && r.URL.Path == FilesPath:
		r.Body = io.NopCloser(bytes.NewReader(body))
		reply = s.uploadFile(r)
	case r.Method == http.MethodPost && r.URL.Path == BatchesPath:
		reply = s.createBatch(body)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, BatchesPath+"/"):
		reply = s.retrieveBatch(strings.TrimPrefix(r.URL.Path, BatchesPath+"/"))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, FilesPath+"/") && strings.HasSuffix(r.URL.Path, "/content"):
		reply = s.fileContent(strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, FilesPath+"/"), "/content"))
	default:
		reply = openAIError(http.StatusNotFound, fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path), "invalid_request_error", nil)
	}
	if reply.Header.Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	for k, vs := range reply.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if reply.Status == 0 {
		reply.Status = http.StatusOK
	}
	w.WriteHeader(reply.Status)
	_, _ = w.Write(reply.Body)
}

// newID returns a fresh id with OpenAI's prefix ("file-", "batch_"); b.mu
// is held.
func (b *batchState) newID(prefix string) string {
	b.next++
	return fmt.Sprintf("%s%06d", prefix, b.next)
}

// uploadFile is POST /v1/files: multipart with purpose "batch" and a
// JSONL file whose every line is a JSON object.
func (s *Server) uploadFile(r *http.Request) Reply {
	if err := r.ParseMultipartForm(32 << 20); err != nil {
		return BadRequest("Expected a multipart/form-data body: " + err.Error())
	}
	if p := r.FormValue("purpose"); p != "batch" {
		return BadRequest(fmt.Sprintf("'%s' is not one of ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] - 'purpose'", p))
	}
	f, hdr, err := r.FormFile("file")
	if err != nil {
		return BadRequest("Missing required parameter: 'file'.")
	}
	defer func() { _ = f.Close() }() // an in-memory or temporary upload part
	data, err := io.ReadAll(io.LimitReader(f, maxUploadBytes+1))
	if err != nil {
		return BadRequest(err.Error())
	}
	if len(data) > maxUploadBytes {
		return BadRequest(fmt.Sprintf("File is too large: a batch input file holds at most %d bytes.", maxUploadBytes))
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxUploadBytes)
	for n := 1; sc.Scan(); n++ {
		var obj map[string]any
		if len(bytes.TrimSpace(sc.Bytes())) > 0 && json.Unmarshal(sc.Bytes(), &obj) != nil {
			return BadRequest(fmt.Sprintf("Invalid file format for Batch API. Must be .jsonl: line %d is not a JSON object.", n))
		}
	}
	b := &s.batch
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.files == nil {
		b.files = map[string]*storedFile{}
	}
	file := &storedFile{id: b.newID("file-"), name: hdr.Filename, purpose: "batch", data: data, created: s.now()}
	b.files[file.id] = file
	return JSON(http.StatusOK, fileObject(file))
}

// fileObject is OpenAI's File object.
func fileObject(f *storedFile) map[string]any {
	return map[string]any{
		"id": f.id, "object": "file", "bytes": len(f.data), "created_at": f.created.Unix(),
		"filename": f.name, "purpose": f.purpose, "status": "processed", "status_details": nil,
	}
}

// createBatch is POST /v1/batches.
func (s *Server) createBatch(body []byte) Reply {
	var req struct {
		InputFileID      string `json:"input_file_id"`
		Endpoint         string `json:"endpoint"`
		CompletionWindow string `json:"completion_window"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return BadRequest("We could not parse the JSON body of your request.")
	}
	if req.Endpoint != batchEndpoint && req.Endpoint != "/v1/embeddings" && req.Endpoint != "/v1/responses" {
		return BadRequest(fmt.Sprintf("Invalid value: '%s'. Supported values are: '/v1/chat/completions', '/v1/embeddings', '/v1/responses'.", req.Endpoint))
	}
	if req.CompletionWindow != "24h" {
		return BadRequest(fmt.Sprintf("Invalid value: '%s'. Supported values are: '24h'.", req.CompletionWindow))
	}
	b := &s.batch
	b.mu.Lock()
	defer b.mu.Unlock()
	f, ok := b.files[req.InputFileID]
	if !ok {
		return openAIError(http.StatusNotFound, fmt.Sprintf("No such File object: %s", req.InputFileID), "invalid_request_error", nil)
	}
	rb := &runBatch{id: b.newID("batch_"), inputFileID: f.id, created: s.now()}
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(f.data))
	sc.Buffer(nil, maxUploadBytes)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l inputLine
		_ = json.Unmarshal(sc.Bytes(), &l) // upload checked it is an object
		bad := func(code, msg string) {
			rb.invalid = append(rb.invalid, map[string]any{"code": code, "message": msg, "param": nil, "line": n})
		}
		switch {
		case l.CustomID == "":
			bad("missing_required_parameter", "Missing required parameter: 'custom_id'.")
		case seen[l.CustomID] > 0:
			bad("duplicate_custom_id", fmt.Sprintf("The custom_id for this request is a duplicate of line %d.", seen[l.CustomID]))
		case l.Method != http.MethodPost:
			bad("invalid_method", "The method must be POST.")
		case l.URL != req.Endpoint:
			bad("mismatched_endpoint", fmt.Sprintf("The provided URL '%s' does not match the batch endpoint '%s'.", l.URL, req.Endpoint))
		}
		seen[l.CustomID] = n
		rb.lines = append(rb.lines, l)
	}
	if len(rb.lines) == 0 {
		return BadRequest("The batch input file is empty.")
	}
	if b.batches == nil {
		b.batches = map[string]*runBatch{}
	}
	b.batches[rb.id] = rb
	return JSON(http.StatusOK, s.batchObject(rb, req.Endpoint))
}

// retrieveBatch is GET /v1/batches/{id}.
func (s *Server) retrieveBatch(id string) Reply {
	b := &s.batch
	b.mu.Lock()
	rb, ok := b.batches[id]
	b.mu.Unlock()
	if !ok {
		return openAIError(http.StatusNotFound, fmt.Sprintf("No batch found with id '%s'.", id), "invalid_request_error", nil)
	}
	if st, _ := s.status(rb); st == "finalizing" || terminal(st) {
		s.answer(rb, st)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return JSON(http.StatusOK, s.batchObject(rb, batchEndpoint))
}

// fileContent is GET /v1/files/{id}/content.
func (s *Server) fileContent(id string) Reply {
	b := &s.batch
	b.mu.Lock()
	defer b.mu.Unlock()
	f, ok := b.files[id]
	if !ok {
		return openAIError(http.StatusNotFound, fmt.Sprintf("No such File object: %s", id), "invalid_request_error", nil)
	}
	return Reply{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/octet-stream"}}, Body: f.data}
}

func terminal(status string) bool {
	switch status {
	case "completed", "failed", "expired", "cancelled":
		return true
	}
	return false
}

// phases returns how long a batch stays validating, in progress and
// finalizing.
func (s *Server) phases() (v, ip, fz time.Duration) {
	bh := s.batch.behavior
	if bh.Validating == 0 && bh.InProgress == 0 && bh.Finalizing == 0 {
		return time.Minute, time.Minute, time.Minute
	}
	return bh.Validating, bh.InProgress, bh.Finalizing
}

// status is the batch's status now, and when it entered it.
func (s *Server) status(rb *runBatch) (string, time.Time) {
	bh := s.batch.behavior
	v, ip, fz := s.phases()
	t := s.now().Sub(rb.created)
	switch {
	case t < v:
		return "validating", rb.created
	case len(rb.invalid) > 0 || bh.End == "failed":
		return "failed", rb.created.Add(v)
	case t < v+ip:
		return "in_progress", rb.created.Add(v)
	case t < v+ip+fz:
		return "finalizing", rb.created.Add(v + ip)
	case bh.End == "" || bh.End == "completed":
		return "completed", rb.created.Add(v + ip + fz)
	default:
		return bh.End, rb.created.Add(v + ip + fz)
	}
}

// answer runs the batch's lines through the server's replies (script,
// then handler; a line's n is its 0-based index) once, and writes its
// output and error files. Failed batches answer nothing.
func (s *Server) answer(rb *runBatch, status string) {
	b := &s.batch
	b.mu.Lock()
	done := rb.answered || status == "failed"
	rb.answered = true
	b.mu.Unlock()
	if done {
		return
	}
	var out, errs bytes.Buffer
	completed, failed := 0, 0
	stop := len(rb.lines)
	if b.behavior.End == "expired" || b.behavior.End == "cancelled" {
		stop = min(b.behavior.Answered, stop)
	}
	for i, l := range rb.lines {
		line := map[string]any{"id": fmt.Sprintf("batch_req_%s_%d", rb.id, i), "custom_id": l.CustomID, "response": nil, "error": nil}
		if i >= stop {
			line["error"] = map[string]any{"code": "batch_" + b.behavior.End, "message": "This request could not be executed before the batch " + b.behavior.End + "."}
			writeJSONLine(&errs, line)
			failed++
			continue
		}
		s.mu.Lock()
		reply := s.pick(i, Recorded{Method: http.MethodPost, Path: l.URL, Authorized: true, Body: l.Body, Received: time.Now()})
		if reply.Hang {
			line["error"] = map[string]any{"code": "timeout", "message": "The request timed out."}
			writeJSONLine(&errs, line)
			failed++
			continue
		}
		status := reply.Status
		if status == 0 {
			status = http.StatusOK
		}
		var body any = json.RawMessage(reply.Body)
		if !json.Valid(reply.Body) {
			body = string(reply.Body)
		}
		line["response"] = map[string]any{"status_code": status, "request_id": fmt.Sprintf("req_%s_%d", rb.id, i), "body": body}
		if status == http.StatusOK {
			writeJSONLine(&out, line)
			completed++
		} else {
			writeJSONLine(&errs, line)
			failed++
		}
	}
	output := out.Bytes()
	if b.behavior.Tamper != nil && len(output) > 0 {
		output = b.behavior.Tamper(output)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	rb.completed, rb.failed = completed, failed
	if len(output) > 0 {
		f := &storedFile{id: b.newID("file-"), name: "batch_" + rb.id + "_output.jsonl", purpose: "batch_output", data: output, created: s.now()}
		b.files[f.id] = f
		rb.outputFileID = f.id
	}
	if errs.Len() > 0 {
		f := &storedFile{id: b.newID("file-"), name: "batch_" + rb.id + "_error.jsonl", purpose: "batch_output", data: errs.Bytes(), created: s.now()}
		b.files[f.id] = f
		rb.errorFileID = f.id
	}
}

// writeJSONLine appends v's JSON and a newline; v holds raw JSON bodies
// verbatim (json.RawMessage), without HTML escaping.
func writeJSONLine(buf *bytes.Buffer, v any) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // maps of strings, numbers and valid raw JSON always encode
}

// batchObject is OpenAI's Batch object for rb now; b.mu is held.
func (s *Server) batchObject(rb *runBatch, endpoint string) map[string]any {
	status, since := s.status(rb)
	unix := func(t time.Time) any { return t.Unix() }
	obj := map[string]any{
		"id": rb.id, "object": "batch", "endpoint": endpoint, "errors": nil,
		"input_file_id": rb.inputFileID, "completion_window": "24h", "status": status,
		"output_file_id": nil, "error_file_id": nil,
		"created_at": rb.created.Unix(), "in_progress_at": nil, "expires_at": rb.created.Add(24 * time.Hour).Unix(),
		"finalizing_at": nil, "completed_at": nil, "failed_at": nil, "expired_at": nil,
		"cancelling_at": nil, "cancelled_at": nil,
		"request_counts": map[string]any{"total": len(rb.lines), "completed": 0, "failed": 0},
		"metadata":       nil,
	}
	if v, ip, _ := s.phases(); status != "validating" && status != "failed" {
		obj["in_progress_at"] = unix(rb.created.Add(v))
		if status != "in_progress" {
			obj["finalizing_at"] = unix(rb.created.Add(v + ip))
		}
	}
	switch status {
	case "failed":
		obj["failed_at"] = unix(since)
		data := rb.invalid
		if len(data) == 0 {
			data = []map[string]any{{"code": "batch_failed", "message": "The batch failed.", "param": nil, "line": nil}}
		}
		obj["errors"] = map[string]any{"object": "list", "data": data}
	}
	if terminal(status) && status != "failed" {
		obj[status+"_at"] = unix(since)
		obj["request_counts"] = map[string]any{"total": len(rb.lines), "completed": rb.completed, "failed": rb.failed}
		if rb.outputFileID != "" {
			obj["output_file_id"] = rb.outputFileID
		}
		if rb.errorFileID != "" {
			obj["error_file_id"] = rb.errorFileID
		}
	}
	return obj
}
