package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// resultReader reads a batch's output and error files into the cache.
type resultReader struct {
	c      *Client
	t      *trackedBatch
	at     time.Time
	o      BatchOptions
	rep    *BatchReport
	stored map[string]string
}

// resultLine is one line of a batch output or error file (OpenAI API
// reference, "The request output object").
type resultLine struct {
	ID       string `json:"id"`
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		RequestID  string          `json:"request_id"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// read streams file id line by line (never more than o.MaxLineBytes of a
// line, o.MaxFileBytes of the file in all) and stores every successful
// chat completion of a request of the batch; every other line is a
// problem of the report.
func (r *resultReader) read(ctx context.Context, id string) error {
	body, err := r.c.openFileContent(ctx, id)
	if err != nil {
		return err
	}
	defer func() { _ = body.Close() }() // read to the end or given up: nothing left to lose
	// The reader stops one byte past the bound; consumed counts what the
	// lines took, which says whether a line lies past it.
	br := bufio.NewReaderSize(io.LimitReader(body, r.o.MaxFileBytes+1), 64<<10)
	var (
		line     []byte
		consumed int64
	)
	for n := 1; ; n++ {
		var tooLong bool
		var size int
		line, size, tooLong, err = readLine(br, line[:0], r.o.MaxLineBytes)
		consumed += int64(size)
		if len(line) > 0 || tooLong {
			where := fmt.Sprintf("batch %s file %s line %d", r.t.id, id, n)
			switch {
			case consumed > r.o.MaxFileBytes:
				r.rep.problem("%s: the file exceeds %d bytes; the rest is not read", where, r.o.MaxFileBytes)
				return nil
			case tooLong:
				r.rep.problem("%s: longer than %d bytes, skipped", where, r.o.MaxLineBytes)
			default:
				if err := r.line(ctx, where, line); err != nil {
					return err
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("batch %s: reading file %s: %w", r.t.id, id, err)
		}
	}
}

// readLine appends the next line of br (without its newline) to buf and
// says how many bytes it took; a line longer than limit is read to its
// end but not kept (tooLong).
func readLine(br *bufio.Reader, buf []byte, limit int) (line []byte, size int, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if !tooLong {
			if len(buf)+len(chunk) > limit+1 {
				tooLong, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), size, tooLong, err
	}
}

// line handles one line of an output or error file.
func (r *resultReader) line(ctx context.Context, where string, raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	var l resultLine
	if err := json.Unmarshal(raw, &l); err != nil {
		r.rep.problem("%s: not a JSON result line: %v", where, err)
		return nil
	}
	switch {
	case !r.t.keys[l.CustomID]:
		r.rep.problem("%s: custom_id %q is not a request of this batch", where, snippet([]byte(l.CustomID)))
		return nil
	case r.stored[l.CustomID] != "":
		// A repeated line: the first answer stays (as in the cache).
		return nil
	case l.Error != nil:
		r.rep.problem("%s: request %s: %s: %s", where, l.CustomID, l.Error.Code, l.Error.Message)
		return nil
	case l.Response == nil:
		r.rep.problem("%s: request %s: no response", where, l.CustomID)
		return nil
	case l.Response.StatusCode != 200:
		r.rep.problem("%s: request %s: %v", where, l.CustomID, newStatusError(l.Response.StatusCode, l.Response.Body))
		return nil
	}
	resp, err := parseResponse(l.Response.Body)
	if err != nil {
		r.rep.problem("%s: request %s: %v", where, l.CustomID, err)
		return nil
	}
	if !resp.Measured() {
		// Not cached (Response.Measured): the synchronous path asks again.
		r.rep.problem("%s: request %s: the provider reported no output tokens", where, l.CustomID)
		return nil
	}
	resp.Attempts, resp.ObtainedAt, resp.BatchID = 1, r.at, r.t.id
	if err := r.c.opts.cache.Put(ctx, l.CustomID, resp); err != nil {
		return fmt.Errorf("cache store: %w", err)
	}
	r.stored[l.CustomID] = r.t.id
	r.rep.Stored++
	return nil
}

// errorsAsStatus returns err's *StatusError, if any.
func errorsAsStatus(err error) (*StatusError, bool) {
	var se *StatusError
	ok := errors.As(err, &se)
	return se, ok
}
