package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/canonjson"
)

// BatchStore records the batches a Client submitted, so that a process
// restarted while they run polls them instead of submitting their requests
// again. *SQLCache implements it; Prefill needs a Cache that does.
type BatchStore interface {
	// SaveBatch stores a batch as pending, with the cache keys of its
	// requests.
	SaveBatch(ctx context.Context, b StoredBatch) error
	// PendingBatches returns the batches of baseURL whose results were not
	// read yet.
	PendingBatches(ctx context.Context, baseURL string) ([]StoredBatch, error)
	// FinishBatch marks a batch read, with the provider's final status.
	FinishBatch(ctx context.Context, id, state string, at time.Time) error
	// UnreportedAnswers returns, by cache key, the finished batches of
	// baseURL that held the request and that no call has marked reported
	// (MarkReported): among them, the batch whose answer a process that
	// died before reporting it left unbilled.
	UnreportedAnswers(ctx context.Context, baseURL string) (map[string][]string, error)
	// MarkReported records that the request of cache key needs no more
	// reporting, in every batch that held it: its answer was reported to
	// the run that bills it, or no batch answered it.
	MarkReported(ctx context.Context, key string) error
}

// StoredBatch is a batch as a BatchStore keeps it.
type StoredBatch struct {
	// ID is the provider's batch id.
	ID string
	// BaseURL is the client's base URL (without trailing slash).
	BaseURL string
	// CreatedAt is when the batch was created.
	CreatedAt time.Time
	// Keys are the cache keys of its requests: its lines' custom_ids.
	Keys []string
}

// Batch bounds: OpenAI's limits per batch (50,000 requests, a 200 MB input
// file), the 24 h completion window plus time to finalize, and the poll
// interval's growth.
const (
	// DefaultBatchMaxRequests is OpenAI's most requests per batch.
	DefaultBatchMaxRequests = 50_000
	// DefaultBatchMaxBytes is OpenAI's largest batch input file (200 MB).
	DefaultBatchMaxBytes = 200_000_000
	// DefaultBatchMaxWait is the completion window plus an hour to finalize.
	DefaultBatchMaxWait = 25 * time.Hour
	// deadlineMargin is the time a wait leaves before its context's
	// deadline to say which batches are still running.
	deadlineMargin = time.Minute
	// DefaultBatchPollBase is the first poll interval's upper bound.
	DefaultBatchPollBase = 15 * time.Second
	// DefaultBatchPollMax caps the poll interval.
	DefaultBatchPollMax = 10 * time.Minute
	// DefaultBatchMaxFileBytes bounds the bytes read of one output or
	// error file (read line by line, never whole in memory).
	DefaultBatchMaxFileBytes = 8 << 30
	// maxBatchProblems bounds the problems a BatchReport lists.
	maxBatchProblems = 20
)

// BatchOptions bound a Prefill; zero fields take the defaults above.
type BatchOptions struct {
	// MaxRequests and MaxBytes bound one batch's input file; more
	// requests are split into several batches.
	MaxRequests int
	MaxBytes    int
	// MaxWait bounds the wait for the batches, from the first poll.
	MaxWait time.Duration
	// PollBase and PollMax shape the poll interval: before poll n+1 the
	// client waits a random time in [w/2, w), w = min(PollMax,
	// PollBase·2^(n-1)) (exponential backoff with jitter, through the
	// Client's clock and sleep).
	PollBase, PollMax time.Duration
	// MaxLineBytes bounds one line of an output or error file; longer
	// lines are skipped (their requests stay for the synchronous path).
	// 0 means the synchronous path's bound on a response body plus 1 MiB.
	MaxLineBytes int
	// MaxFileBytes bounds the bytes read of one output or error file.
	MaxFileBytes int64
	// Stop, when it closes, submits no further batch and ends the wait for
	// those submitted — never a submission under way, which would leave a
	// batch created at the provider and recorded nowhere: Prefill returns
	// a *BatchWaitError for the batches still running (they stay recorded,
	// and the next call resumes them); requests not submitted count as
	// Missing. Nil waits on.
	Stop <-chan struct{}
}

func (o BatchOptions) withDefaults() BatchOptions {
	if o.MaxRequests <= 0 {
		o.MaxRequests = DefaultBatchMaxRequests
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultBatchMaxBytes
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultBatchMaxWait
	}
	if o.PollBase <= 0 {
		o.PollBase = DefaultBatchPollBase
	}
	if o.PollMax <= 0 {
		o.PollMax = DefaultBatchPollMax
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = maxResponseBytes + 1<<20
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultBatchMaxFileBytes
	}
	return o
}

// BatchReport says what a Prefill did.
type BatchReport struct {
	// Requests is the number of distinct requests asked for.
	Requests int
	// Cached were in the cache already.
	Cached int
	// Resumed were in batches an earlier process had submitted and
	// stored, which were polled instead of submitted again.
	Resumed int
	// Submitted were sent in new batches.
	Submitted int
	// Batches are the ids of the batches waited for, resumed ones first.
	Batches []string
	// Stored is how many responses the batches added to the cache.
	Stored int
	// Missing is how many requests the cache still lacks: the synchronous
	// path will send them.
	Missing int
	// Problems says why requests were left to the synchronous path (a
	// failed or expired batch, an error line, a line that could not be
	// read), at most 20 lines; ProblemCount counts them all.
	Problems     []string
	ProblemCount int
	// Answered has one entry per request asked for, in order: the id of
	// the batch whose answer this Prefill stored for it, or "" (cached
	// before, left to the synchronous path, or a repeat of an earlier
	// request). Those answers are the calls the batches were paid for
	// (Price.Batched), once each; so are the answers of finished batches
	// no call reported (Unreported), found in the cache.
	Answered []string
	// Unreported counts the cached answers of finished batches that no
	// call had reported (a process that died before it did): this one
	// reports them, in Answered, to be billed once.
	Unreported int
}

func (r *BatchReport) problem(format string, args ...any) {
	r.ProblemCount++
	if len(r.Problems) < maxBatchProblems {
		r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
	}
}

// Warning is one line on what the synchronous path must still do, or ""
// when the batches answered every request.
func (r BatchReport) Warning() string {
	if r.Missing == 0 && r.ProblemCount == 0 {
		return ""
	}
	s := fmt.Sprintf("batches %s left %d of %d requests unanswered (they are sent one by one)", strings.Join(r.Batches, ", "), r.Missing, r.Requests)
	if r.ProblemCount > 0 {
		s += fmt.Sprintf("; %d problems, first: %s", r.ProblemCount, r.Problems[0])
	}
	return s
}

// BatchWaitError says Prefill stopped waiting for batches still running
// after BatchOptions.MaxWait. They stay stored: a later Prefill of the
// same requests resumes them.
type BatchWaitError struct {
	// Waited is how long Prefill polled.
	Waited time.Duration
	// Pending are the ids of the batches still running, with their status.
	Pending []string
}

// Error names the batches still running.
func (e *BatchWaitError) Error() string {
	return fmt.Sprintf("batches still running after %s: %s; run again to resume waiting for them", e.Waited, strings.Join(e.Pending, ", "))
}

// batchItem is one request to batch: its cache key (the line's custom_id)
// and exact body.
type batchItem struct {
	key  string
	body []byte
}

// trackedBatch is a batch Prefill waits for.
type trackedBatch struct {
	id     string
	keys   map[string]bool
	status string
	done   bool
}

// Prefill puts the responses to reqs in the cache through the provider's
// Batch API, so that Complete then answers each of them from the cache:
// the same Response, record for record, as a synchronous call (but for
// Latency, Attempts, ObtainedAt and BatchID, see Response). It renders
// every request exactly as Complete would (same body, same cache key),
// drops those already cached, polls the stored pending batches of this
// base URL that hold any of the others, submits the rest in new batches
// (split at BatchOptions.MaxRequests and MaxBytes) each stored before any
// wait, polls them all with backoff until they end, and stores every
// successful response of their output files. A request a batch did not
// answer (a failed or expired batch, an error line, a line that is not a
// chat completion, a line past the bounds) stays uncached, and the report
// says why: the synchronous path sends it. An invalid request is left to
// Complete, which reports it.
//
// Errors: an *EndpointError wrapping an *apperr.PreconditionError when the
// endpoint does not offer batches (Endpoint.Batch) or the cache is off or
// cannot record batches; a *BatchWaitError after MaxWait; an HTTP or
// cache error of the Batch API calls; the context's error. Batches
// submitted before an error stay stored and are resumed next time.
func (c *Client) Prefill(ctx context.Context, reqs []Request, o BatchOptions) (BatchReport, error) {
	o = o.withDefaults()
	var rep BatchReport
	if !c.ep.Batch {
		return rep, c.wrap(&apperr.PreconditionError{Reason: fmt.Sprintf(
			"endpoint %q does not offer the Batch API; set \"batch\": true in its endpoints entry if its provider does", c.ep.Name)})
	}
	if c.opts.cache == nil {
		return rep, c.wrap(&apperr.PreconditionError{Reason: "batch mode needs the LLM cache: batch results reach Phase 0 through it; switch the cache on"})
	}
	store, ok := c.opts.cache.(BatchStore)
	if !ok {
		return rep, c.wrap(&apperr.PreconditionError{Reason: "batch mode needs a cache that records batches (the SQL cache)"})
	}
	missing, keys, err := c.uncached(ctx, reqs, &rep)
	if err != nil {
		return rep, c.wrap(err)
	}
	rep.Answered = make([]string, len(reqs))
	if err := c.unreported(ctx, store, keys, &rep); err != nil {
		return rep, c.wrap(err)
	}
	if len(missing) == 0 {
		return rep, nil
	}
	need := make(map[string]bool, len(missing))
	for _, it := range missing {
		need[it.key] = true
	}
	pending, err := store.PendingBatches(ctx, c.baseURL)
	if err != nil {
		return rep, c.wrap(err)
	}
	var waits []*trackedBatch
	for _, b := range pending {
		t := &trackedBatch{id: b.ID, keys: make(map[string]bool, len(b.Keys))}
		covers := 0
		for _, k := range b.Keys {
			t.keys[k] = true
			if need[k] {
				covers++
				delete(need, k)
			}
		}
		if covers > 0 {
			rep.Resumed += covers
			waits = append(waits, t)
		}
	}
	var send []batchItem
	for _, it := range missing {
		if need[it.key] {
			send = append(send, it)
		}
	}
	for _, chunk := range splitBatch(send, o, &rep) {
		if closed(o.Stop) {
			break // no batch starts after Stop; the requests stay missing
		}
		t, err := c.submitBatch(ctx, store, chunk)
		if err != nil {
			return rep, c.wrap(err)
		}
		rep.Submitted += len(chunk)
		waits = append(waits, t)
	}
	for _, t := range waits {
		rep.Batches = append(rep.Batches, t.id)
	}
	stored := map[string]string{}
	err = c.awaitBatches(ctx, store, waits, o, &rep, stored)
	for _, it := range missing {
		if stored[it.key] == "" {
			rep.Missing++
		}
	}
	for i, k := range keys {
		if id := stored[k]; k != "" && id != "" {
			rep.Answered[i] = id
			stored[k] = "" // a repeated request is answered once
		}
	}
	if err != nil {
		return rep, c.wrap(err)
	}
	return rep, nil
}

// unreported sets rep.Answered for the cached requests (keys) whose answer
// a finished batch gave and no call has reported: this call reports, and
// so bills, them. A cached answer that is not the batches' needs no
// reporting and is marked so.
func (c *Client) unreported(ctx context.Context, store BatchStore, keys []string, rep *BatchReport) error {
	return c.eachUnreported(ctx, store, keys, func(i int, key string, resp Response, ofBatch bool) error {
		if !ofBatch {
			return store.MarkReported(ctx, key)
		}
		rep.Answered[i] = resp.BatchID
		rep.Unreported++
		return nil
	})
}

// eachUnreported calls yield, in order and once per key ("" never), for
// each of keys whose answer the cache holds and finished batches of this
// client's base URL gave without a call reporting it
// (BatchStore.UnreportedAnswers), with the cached response and whether it
// is one of those batches' answers: not when a synchronous call stored it
// after the batches failed the request (and was billed apart). The one
// rule for what a Prefill reports (unreported) and what a quote says it
// will (Unreported).
func (c *Client) eachUnreported(ctx context.Context, store BatchStore, keys []string, yield func(i int, key string, resp Response, ofBatch bool) error) error {
	answers, err := store.UnreportedAnswers(ctx, c.baseURL)
	if err != nil || len(answers) == 0 {
		return err
	}
	for i, k := range keys {
		ids := answers[k]
		if len(ids) == 0 {
			continue
		}
		resp, hit, err := c.opts.cache.Get(ctx, k)
		if err != nil {
			return fmt.Errorf("cache lookup: %w", err)
		}
		if !hit {
			continue // not cached: a batch of this Prefill answers it
		}
		delete(answers, k) // a repeated request is answered once
		if err := yield(i, k, resp, slices.Contains(ids, resp.BatchID)); err != nil {
			return err
		}
	}
	return nil
}

// MarkReported records that the answer a batch gave req (BatchReport.Answered)
// was reported to the run that bills it, so that no later call reports it
// again.
func (c *Client) MarkReported(ctx context.Context, req Request) error {
	store, ok := c.opts.cache.(BatchStore)
	if !ok {
		return nil
	}
	key, _, err := c.batchKey(req)
	if err != nil || key == "" {
		return err
	}
	return store.MarkReported(ctx, key)
}

// batchKey renders req as Complete would and returns its cache key and
// body; "" for a request Complete would refuse.
func (c *Client) batchKey(req Request) (string, []byte, error) {
	if req.validate() != nil {
		return "", nil, nil
	}
	w, err := buildWire(c.ep, c.extraBody, req)
	if err != nil {
		return "", nil, nil
	}
	body, err := w.body()
	if err != nil {
		return "", nil, fmt.Errorf("request body: %w", err)
	}
	key, err := bodyKey(c.baseURL, body, req.Sample)
	if err != nil {
		return "", nil, fmt.Errorf("cache key: %w", err)
	}
	return key, body, nil
}

// uncached renders reqs as Complete would and returns, once each, those
// the cache lacks, and every request's cache key ("" for one Complete
// would refuse).
func (c *Client) uncached(ctx context.Context, reqs []Request, rep *BatchReport) ([]batchItem, []string, error) {
	seen := map[string]bool{}
	var out []batchItem
	keys := make([]string, len(reqs))
	for i, req := range reqs {
		key, body, err := c.batchKey(req)
		if err != nil {
			return nil, nil, err
		}
		if key == "" {
			continue // Complete reports it
		}
		keys[i] = key
		if seen[key] {
			continue
		}
		seen[key] = true
		rep.Requests++
		_, ok, err := c.opts.cache.Get(ctx, key)
		if err != nil {
			return nil, nil, fmt.Errorf("cache lookup: %w", err)
		}
		if ok {
			rep.Cached++
			continue
		}
		out = append(out, batchItem{key: key, body: body})
	}
	return out, keys, nil
}

// Unreported is what the cached answers of finished batches that no call
// reported (an earlier process stopped first) add to the bill when a
// Prefill reports them: the provider was paid for them already.
type Unreported struct {
	// Answers counts them; PromptTokens and OutputTokens (output cost c of
	// SPEC §1, as billed) are their usage.
	Answers                    int
	PromptTokens, OutputTokens int64
}

// Unreported returns what the next Prefill of reqs would report of the
// answers of finished batches no call reported (see Prefill), without
// reporting them: each request once, only answers the cache holds from
// those batches. Zero without a cache that records batches.
func (c *Client) Unreported(ctx context.Context, reqs []Request) (Unreported, error) {
	var out Unreported
	store, ok := c.opts.cache.(BatchStore)
	if !ok || len(reqs) == 0 {
		return out, nil
	}
	keys := make([]string, len(reqs))
	for i, req := range reqs {
		key, _, err := c.batchKey(req)
		if err != nil {
			return out, c.wrap(err)
		}
		keys[i] = key
	}
	err := c.eachUnreported(ctx, store, keys, func(_ int, _ string, resp Response, ofBatch bool) error {
		if ofBatch {
			out.Answers++
			out.PromptTokens += int64(resp.PromptTokens)
			out.OutputTokens += int64(resp.Cost)
		}
		return nil
	})
	if err != nil {
		return Unreported{}, c.wrap(err)
	}
	return out, nil
}

// batchLine is one line of a batch input file.
type batchLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// encodeLine returns the input line of it, newline included.
func encodeLine(it batchItem) ([]byte, error) {
	line, err := canonjson.Marshal(batchLine{CustomID: it.key, Method: "POST", URL: BatchEndpoint, Body: it.body})
	if err != nil {
		return nil, err
	}
	return append(line, '\n'), nil
}

// splitBatch cuts items into input files of at most o.MaxRequests lines
// and o.MaxBytes bytes; a request whose line alone is longer is left to
// the synchronous path.
func splitBatch(items []batchItem, o BatchOptions, rep *BatchReport) [][]batchItem {
	var out [][]batchItem
	var cur []batchItem
	size := 0
	for _, it := range items {
		n := len(it.body) + len(it.key) + 128 // the line's other fields
		if n > o.MaxBytes {
			rep.problem("request %s: its line (%d bytes) exceeds a batch file's %d bytes", it.key, n, o.MaxBytes)
			continue
		}
		if len(cur) > 0 && (len(cur) >= o.MaxRequests || size+n > o.MaxBytes) {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, it)
		size += n
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// submitBatch uploads one input file, creates its batch and stores it
// before returning, even if ctx ends meanwhile: a batch the store does not
// know would be paid for and never read.
func (c *Client) submitBatch(ctx context.Context, store BatchStore, items []batchItem) (*trackedBatch, error) {
	var buf bytes.Buffer
	t := &trackedBatch{keys: make(map[string]bool, len(items))}
	keys := make([]string, len(items))
	for i, it := range items {
		line, err := encodeLine(it)
		if err != nil {
			return nil, fmt.Errorf("batch line: %w", err)
		}
		buf.Write(line)
		keys[i] = it.key
		t.keys[it.key] = true
	}
	fileID, err := c.uploadBatchFile(ctx, "triage-phase0.jsonl", buf.Bytes())
	if err != nil {
		return nil, err
	}
	b, err := c.createBatch(ctx, fileID)
	if err != nil {
		return nil, err
	}
	t.id, t.status = b.ID, b.Status
	if err := store.SaveBatch(context.WithoutCancel(ctx), StoredBatch{ID: b.ID, BaseURL: c.baseURL, CreatedAt: c.opts.now(), Keys: keys}); err != nil {
		return nil, fmt.Errorf("batch %s was created but could not be stored (it will not be resumed): %w", b.ID, err)
	}
	return t, nil
}

// awaitBatches polls the batches until each ended and its results were
// read, or until o.MaxWait.
func (c *Client) awaitBatches(ctx context.Context, store BatchStore, waits []*trackedBatch, o BatchOptions, rep *BatchReport, stored map[string]string) error {
	start := c.opts.now()
	for round := 1; ; round++ {
		open := 0
		for _, t := range waits {
			if t.done {
				continue
			}
			b, err := c.getBatch(ctx, t.id)
			if se, ok := errorsAsStatus(err); ok && se.StatusCode == 404 {
				rep.problem("batch %s: the provider does not know it (%v); its requests are sent one by one", t.id, err)
				if err := store.FinishBatch(ctx, t.id, "unknown", c.opts.now()); err != nil {
					return err
				}
				t.done = true
				continue
			}
			if err != nil {
				return err
			}
			t.status = b.Status
			if !b.terminal() {
				open++
				continue
			}
			if err := c.collectBatch(ctx, t, b, o, rep, stored); err != nil {
				return err
			}
			if err := store.FinishBatch(ctx, t.id, b.Status, c.opts.now()); err != nil {
				return err
			}
			t.done = true
		}
		if open == 0 {
			return nil
		}
		now := c.opts.now()
		delay := pollDelay(round, o, c.opts.rand)
		// Stop while the caller can still be told, resumably: at MaxWait,
		// or when the next poll would outlive the context's deadline (a
		// served Executor's long-call deadline is shorter than MaxWait).
		dl, hasDeadline := ctx.Deadline()
		if waited := now.Sub(start); waited >= o.MaxWait || (hasDeadline && !now.Add(delay+deadlineMargin).Before(dl)) || closed(o.Stop) {
			e := &BatchWaitError{Waited: waited}
			for _, t := range waits {
				if !t.done {
					e.Pending = append(e.Pending, t.id+" ("+t.status+")")
				}
			}
			return e
		}
		if err := c.sleepUnless(ctx, o.Stop, delay); err != nil {
			return err
		}
	}
}

// sleepUnless sleeps d through the client's clock, ending early, without
// an error, when stop closes (the next round then sees it).
func (c *Client) sleepUnless(ctx context.Context, stop <-chan struct{}, d time.Duration) error {
	if stop == nil {
		return c.opts.sleep(ctx, d)
	}
	sleepCtx, wake := context.WithCancel(ctx)
	defer wake()
	go func() {
		select {
		case <-stop:
			wake()
		case <-sleepCtx.Done():
		}
	}()
	err := c.opts.sleep(sleepCtx, d)
	if err != nil && ctx.Err() == nil && closed(stop) {
		return nil
	}
	return err
}

// closed reports whether stop has closed (a nil stop never does).
func closed(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// pollDelay is the wait before poll round+1: a random time in [w/2, w),
// w = min(PollMax, PollBase·2^(round-1)).
func pollDelay(round int, o BatchOptions, rand func() float64) time.Duration {
	w := o.PollMax
	if shift := round - 1; shift < 62 && o.PollBase <= o.PollMax>>shift {
		w = o.PollBase << shift
	}
	return w/2 + time.Duration(rand()*float64(w/2))
}

// collectBatch reads an ended batch's output and error files into the
// cache and reports what it left unanswered.
func (c *Client) collectBatch(ctx context.Context, t *trackedBatch, b batchObject, o BatchOptions, rep *BatchReport, stored map[string]string) error {
	if b.Status == BatchFailed {
		reason := "no reason given"
		if b.Errors != nil && len(b.Errors.Data) > 0 {
			e := b.Errors.Data[0]
			reason = e.Code + ": " + e.Message
			if e.Line != nil {
				reason = fmt.Sprintf("line %d: %s", *e.Line, reason)
			}
			if n := len(b.Errors.Data); n > 1 {
				reason += fmt.Sprintf(" (and %d more)", n-1)
			}
		}
		rep.problem("batch %s failed: %s", t.id, reason)
	}
	at := c.opts.now()
	if b.CompletedAt > 0 {
		at = time.Unix(b.CompletedAt, 0).UTC()
	}
	r := resultReader{c: c, t: t, at: at, o: o, rep: rep, stored: stored}
	for _, f := range []string{b.OutputFileID, b.ErrorFileID} {
		if f == "" {
			continue
		}
		if err := r.read(ctx, f); err != nil {
			return err
		}
	}
	left := 0
	for k := range t.keys {
		if stored[k] == "" {
			left++
		}
	}
	if left > 0 && b.Status != BatchCompleted && b.Status != BatchFailed {
		rep.problem("batch %s %s with %d requests unanswered", t.id, b.Status, left)
	}
	return nil
}
