package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
)

// The OpenAI Batch API as the Client uses it: the request line's url and
// the batch's endpoint, its one completion window, and the statuses of a
// batch (OpenAI API reference, "The batch object").
const (
	// BatchEndpoint is the batch's endpoint and every input line's url.
	BatchEndpoint = "/v1/chat/completions"
	// BatchCompletionWindow is the only window OpenAI accepts.
	BatchCompletionWindow = "24h"

	// BatchValidating: the input file is being checked.
	BatchValidating = "validating"
	// BatchInProgress: the requests are being run.
	BatchInProgress = "in_progress"
	// BatchFinalizing: the output and error files are being written.
	BatchFinalizing = "finalizing"
	// BatchCompleted: every request ran; the files are ready.
	BatchCompleted = "completed"
	// BatchFailed: the input failed validation (errors.data says why).
	BatchFailed = "failed"
	// BatchExpired: the window ended; the requests that ran are in the files.
	BatchExpired = "expired"
	// BatchCancelling: a cancellation is under way.
	BatchCancelling = "cancelling"
	// BatchCancelled: cancelled; the requests that ran are in the files.
	BatchCancelled = "cancelled"

	// batchPending is the state of a stored batch whose results were not
	// read yet.
	batchPending = "pending"
)

// batchObject is the part of OpenAI's Batch object the Client reads.
type batchObject struct {
	ID            string `json:"id"`
	Status        string `json:"status"`
	OutputFileID  string `json:"output_file_id"`
	ErrorFileID   string `json:"error_file_id"`
	CompletedAt   int64  `json:"completed_at"`
	RequestCounts struct {
		Total     int `json:"total"`
		Completed int `json:"completed"`
		Failed    int `json:"failed"`
	} `json:"request_counts"`
	Errors *struct {
		Data []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Line    *int   `json:"line"`
		} `json:"data"`
	} `json:"errors"`
}

// terminal reports whether the batch will not change any more.
func (b batchObject) terminal() bool {
	switch b.Status {
	case BatchCompleted, BatchFailed, BatchExpired, BatchCancelled:
		return true
	}
	return false
}

// maxBatchObjectBytes bounds the JSON of a file or batch object read.
const maxBatchObjectBytes = 1 << 20

// uploadBatchFile uploads a JSONL input file (purpose "batch") and returns
// its id.
func (c *Client) uploadBatchFile(ctx context.Context, name string, data []byte) (string, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if err := mw.WriteField("purpose", "batch"); err != nil {
		return "", err
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, name))
	h.Set("Content-Type", "application/jsonl")
	part, err := mw.CreatePart(h)
	if err != nil {
		return "", err
	}
	if _, err := part.Write(data); err != nil {
		return "", err
	}
	if err := mw.Close(); err != nil {
		return "", err
	}
	body, err := c.batchCall(ctx, http.MethodPost, "/files", mw.FormDataContentType(), buf.Bytes())
	if err != nil {
		return "", fmt.Errorf("uploading batch input file: %w", err)
	}
	var f struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &f); err != nil || f.ID == "" {
		return "", fmt.Errorf("uploading batch input file: %w", &MalformedResponseError{Reason: "no file id", Body: snippet(body)})
	}
	return f.ID, nil
}

// createBatch creates a batch over the uploaded input file.
func (c *Client) createBatch(ctx context.Context, fileID string) (batchObject, error) {
	req, err := json.Marshal(map[string]string{
		"input_file_id": fileID, "endpoint": BatchEndpoint, "completion_window": BatchCompletionWindow,
	})
	if err != nil {
		return batchObject{}, err
	}
	body, err := c.batchCall(ctx, http.MethodPost, "/batches", "application/json", req)
	if err != nil {
		return batchObject{}, fmt.Errorf("creating batch: %w", err)
	}
	return decodeBatch(body)
}

// getBatch retrieves a batch.
func (c *Client) getBatch(ctx context.Context, id string) (batchObject, error) {
	body, err := c.batchCall(ctx, http.MethodGet, "/batches/"+id, "", nil)
	if err != nil {
		return batchObject{}, fmt.Errorf("retrieving batch %s: %w", id, err)
	}
	return decodeBatch(body)
}

func decodeBatch(body []byte) (batchObject, error) {
	var b batchObject
	if err := json.Unmarshal(body, &b); err != nil || b.ID == "" || b.Status == "" {
		return batchObject{}, &MalformedResponseError{Reason: "not a batch object", Body: snippet(body)}
	}
	return b, nil
}

// batchCall makes one Batch API call of at most Endpoint.MaxAttempts
// attempts and returns the 2xx body (at most maxBatchObjectBytes). A GET
// is retried on every transient failure; a POST only on a status that says
// the server did nothing (429, 5xx), never on a lost connection or a
// timeout, after which the file or batch may exist: creating it again
// would pay twice.
func (c *Client) batchCall(ctx context.Context, method, path, contentType string, payload []byte) ([]byte, error) {
	for n := 1; ; n++ {
		body, err, retry := c.batchAttempt(ctx, method, path, contentType, payload)
		if err == nil {
			return body, nil
		}
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		var se *StatusError
		if method != http.MethodGet && !errors.As(err, &se) {
			retry = false
		}
		if !retry {
			return nil, err
		}
		if n >= c.ep.MaxAttempts {
			return nil, &ExhaustedError{Attempts: n, Last: err}
		}
		wait := c.backoff.delay(n)
		if se != nil && se.HasRetryAfter {
			wait = se.RetryAfter
		}
		if serr := c.opts.sleep(ctx, wait); serr != nil {
			return nil, &retryWaitError{wait: wait, attempt: n, last: err, err: serr}
		}
	}
}

// batchAttempt is one attempt of batchCall, within Endpoint.Timeout.
func (c *Client) batchAttempt(ctx context.Context, method, path, contentType string, payload []byte) (body []byte, err error, retry bool) {
	actx, cancel := context.WithTimeout(ctx, c.ep.Timeout)
	defer cancel()
	resp, err := c.batchRequest(actx, method, path, contentType, payload)
	if err != nil {
		return nil, err, true
	}
	defer func() { _ = resp.Body.Close() }() // read to the end or failed: nothing left to lose
	body, err = io.ReadAll(io.LimitReader(resp.Body, maxBatchObjectBytes+1))
	if err != nil {
		return nil, c.transportError(actx, err), true
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		se := newStatusError(resp.StatusCode, body)
		se.RetryAfter, se.HasRetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), c.opts.now())
		return nil, se, se.Retryable()
	}
	if len(body) > maxBatchObjectBytes {
		return nil, &MalformedResponseError{Reason: fmt.Sprintf("body exceeds %d bytes", maxBatchObjectBytes), Body: snippet(body)}, false
	}
	return body, nil, false
}

// batchRequest sends one request to the API under BaseURL; the caller
// closes the response's body.
func (c *Client) batchRequest(ctx context.Context, method, path, contentType string, payload []byte) (*http.Response, error) {
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+path, rd)
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	return resp, nil
}

// transportError classifies a failed exchange as attempt does.
func (c *Client) transportError(actx context.Context, err error) error {
	if errors.Is(actx.Err(), context.DeadlineExceeded) {
		return &TimeoutError{After: c.ep.Timeout, Err: err}
	}
	return &ConnectionError{Err: err}
}

// openFileContent opens GET /files/{id}/content; the caller reads and
// closes the body. Transient failures are retried like a GET of batchCall.
func (c *Client) openFileContent(ctx context.Context, id string) (io.ReadCloser, error) {
	path := "/files/" + id + "/content"
	for n := 1; ; n++ {
		resp, err := c.batchRequest(ctx, http.MethodGet, path, "", nil)
		retry := true
		if err == nil {
			if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
				return resp.Body, nil
			}
			body, _ := io.ReadAll(io.LimitReader(resp.Body, snippetBytes))
			_ = resp.Body.Close() // the status is the error
			se := newStatusError(resp.StatusCode, body)
			err, retry = se, se.Retryable()
		}
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		if !retry {
			return nil, fmt.Errorf("downloading file %s: %w", id, err)
		}
		if n >= c.ep.MaxAttempts {
			return nil, fmt.Errorf("downloading file %s: %w", id, &ExhaustedError{Attempts: n, Last: err})
		}
		if err := c.opts.sleep(ctx, c.backoff.delay(n)); err != nil {
			return nil, err
		}
	}
}
