package llmtest

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a settable clock for the server's batches.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func call(t *testing.T, method, url, contentType string, body []byte) (int, map[string]any, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var obj map[string]any
	_ = json.Unmarshal(raw, &obj)
	return resp.StatusCode, obj, raw
}

func upload(t *testing.T, s *Server, purpose, data string) (int, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("purpose", purpose)
	fw, _ := mw.CreateFormFile("file", "in.jsonl")
	_, _ = fw.Write([]byte(data))
	_ = mw.Close()
	status, obj, _ := call(t, http.MethodPost, s.URL()+"/files", mw.FormDataContentType(), buf.Bytes())
	return status, obj
}

func createBatch(t *testing.T, s *Server, fileID string) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"input_file_id": fileID, "endpoint": "/v1/chat/completions", "completion_window": "24h"})
	status, obj, _ := call(t, http.MethodPost, s.URL()+"/batches", "application/json", body)
	return status, obj
}

const goodLines = `{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":"x"}]}}
{"custom_id":"b","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":"y"}]}}
`

func TestBatchLifecycle(t *testing.T) {
	c := &clock{t: time.Unix(1_750_000_000, 0)}
	s := NewServer(t, WithClock(c.now), WithBatch(BatchBehavior{Validating: time.Minute, InProgress: time.Hour, Finalizing: time.Minute}),
		WithScript(OK("first"), BadRequest("no")))
	status, file := upload(t, s, "batch", goodLines)
	if status != 200 || file["object"] != "file" || file["purpose"] != "batch" {
		t.Fatalf("upload: %d %v", status, file)
	}
	status, b := createBatch(t, s, file["id"].(string))
	if status != 200 || b["status"] != "validating" || b["object"] != "batch" {
		t.Fatalf("create: %d %v", status, b)
	}
	id := b["id"].(string)
	for _, step := range []struct {
		after time.Duration
		want  string
	}{{time.Minute, "in_progress"}, {time.Hour, "finalizing"}, {time.Minute, "completed"}} {
		c.add(step.after)
		_, b, _ = call(t, http.MethodGet, s.URL()+"/batches/"+id, "", nil)
		if b["status"] != step.want {
			t.Fatalf("status %v, want %s", b["status"], step.want)
		}
	}
	counts := b["request_counts"].(map[string]any)
	if counts["total"] != 2.0 || counts["completed"] != 1.0 || counts["failed"] != 1.0 || b["completed_at"] == nil {
		t.Errorf("completed batch %v", b)
	}
	_, _, out := call(t, http.MethodGet, s.URL()+"/files/"+b["output_file_id"].(string)+"/content", "", nil)
	var line struct {
		CustomID string `json:"custom_id"`
		Response struct {
			StatusCode int             `json:"status_code"`
			Body       json.RawMessage `json:"body"`
		} `json:"response"`
		Error any `json:"error"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(out), &line); err != nil || line.CustomID != "a" || line.Response.StatusCode != 200 || !bytes.Equal(line.Response.Body, OK("first").Body) || line.Error != nil {
		t.Errorf("output %s", out)
	}
	_, _, errs := call(t, http.MethodGet, s.URL()+"/files/"+b["error_file_id"].(string)+"/content", "", nil)
	if !strings.Contains(string(errs), `"custom_id":"b"`) || !strings.Contains(string(errs), `"status_code":400`) {
		t.Errorf("error file %s", errs)
	}
	if s.Count() != 0 {
		t.Errorf("batch lines counted as %d synchronous requests", s.Count())
	}
}

func TestBatchErrors(t *testing.T) {
	s := NewServer(t, WithAPIKey("k"))
	if status, _, _ := call(t, http.MethodGet, s.URL()+"/batches/batch_x", "", nil); status != 401 {
		t.Errorf("no key: %d", status)
	}
	s = NewServer(t)
	if status, obj, _ := call(t, http.MethodGet, s.URL()+"/batches/batch_x", "", nil); status != 404 || !strings.Contains(obj["error"].(map[string]any)["message"].(string), "batch_x") {
		t.Errorf("unknown batch: %d %v", status, obj)
	}
	if status, _, _ := call(t, http.MethodGet, s.URL()+"/files/file-x/content", "", nil); status != 404 {
		t.Errorf("unknown file: %d", status)
	}
	if status, _ := upload(t, s, "fine-tune-typo", goodLines); status != 400 {
		t.Errorf("bad purpose: %d", status)
	}
	if status, obj := upload(t, s, "batch", goodLines+"not json\n"); status != 400 || !strings.Contains(obj["error"].(map[string]any)["message"].(string), "line 3") {
		t.Errorf("bad line: %d %v", status, obj)
	}
	if status, _ := createBatch(t, s, "file-missing"); status != 404 {
		t.Errorf("batch of a missing file: %d", status)
	}
}

func TestBatchFailsValidation(t *testing.T) {
	c := &clock{t: time.Unix(1_750_000_000, 0)}
	s := NewServer(t, WithClock(c.now))
	dup := goodLines + `{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{}}` + "\n" +
		`{"custom_id":"c","method":"POST","url":"/v1/embeddings","body":{}}` + "\n"
	_, file := upload(t, s, "batch", dup)
	_, b := createBatch(t, s, file["id"].(string))
	c.add(2 * time.Minute)
	_, b, _ = call(t, http.MethodGet, s.URL()+"/batches/"+b["id"].(string), "", nil)
	errs, _ := b["errors"].(map[string]any)
	data, _ := errs["data"].([]any)
	if b["status"] != "failed" || len(data) != 2 || b["output_file_id"] != nil {
		t.Fatalf("batch %v", b)
	}
	first := data[0].(map[string]any)
	if first["code"] != "duplicate_custom_id" || first["line"] != 3.0 || data[1].(map[string]any)["code"] != "mismatched_endpoint" {
		t.Errorf("errors %v", data)
	}
}
