package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/runs/quote"
)

// TestQuoteCountsUnreportedBatchAnswers: answers of a finished batch that
// a process read into the cache and died before reporting are quoted as
// not yet recorded — 2 answers of 200 + 4000 tokens at the batch price —
// and counted cached; the next batch baseline records them in the spend
// record, after which the quote has none.
func TestQuoteCountsUnreportedBatchAnswers(t *testing.T) {
	ctx := context.Background()
	s := newCappedStudy(t, true)
	s.setCap(t, 1000) // batch Phase 0, under a cap that never binds
	// The earlier process: its batch of two problems read into the cache,
	// then it died before reporting them.
	eps, err := loadEndpoints(filepath.Join(s.dir, "endpoints.json"))
	if err != nil {
		t.Fatal(err)
	}
	cache, err := llm.OpenCache(ctx, filepath.Join(s.dir, "llm-cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	client, err := llm.NewClients(llm.WithCache(cache), llm.WithGetenv(func(string) string { return "k" })).Get("q", eps["q"])
	if err != nil {
		t.Fatal(err)
	}
	var reqs []llm.Request
	for _, p := range s.probs[:2] {
		req, err := solving.Request(p, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, req)
	}
	if rep, err := client.Prefill(ctx, reqs, llm.BatchOptions{}); err != nil || rep.Stored != 2 {
		t.Fatalf("the earlier process's batch: %+v, %v", rep, err)
	}
	if err := cache.Close(); err != nil {
		t.Fatal(err)
	}

	q, text := s.fullQuote(t)
	want := 2 * solveDollars * llm.DefaultBatchFactor
	if len(q.Unrecorded) != 1 {
		t.Fatalf("unrecorded = %+v, want the two answers", q.Unrecorded)
	}
	u := q.Unrecorded[0]
	if u.Phase != quote.Baseline || u.Endpoint != "q" || u.Answers != 2 || u.InputTokens != 400 || u.OutputTokens != 8000 || u.Dollars == nil || !nearDollars(*u.Dollars, want) {
		t.Errorf("unrecorded = %+v (dollars %v), want 2 answers, 400 and 8000 tokens, $%v", u, deref(u.Dollars), want)
	}
	for _, r := range q.Rows {
		if r.Phase == quote.Baseline && (r.Cached != 2 || r.Calls != int64(len(s.probs)-2)) {
			t.Errorf("Phase 0 row %+v, want the 2 answers cached and %d calls", r, len(s.probs)-2)
		}
	}
	if !strings.Contains(text, "not yet recorded: phase0_baseline q: 2 answers") {
		t.Errorf("the table does not say so:\n%s", text)
	}

	s.run(t, "baseline")
	if r := s.spend(t)["phase0_baseline"]; r.Calls != int64(len(s.probs)) {
		t.Errorf("spend after the baseline %+v, want all %d answers billed", r, len(s.probs))
	}
	if q, _ := s.fullQuote(t); len(q.Unrecorded) != 0 {
		t.Errorf("after the baseline, unrecorded = %+v, want none", q.Unrecorded)
	}
}

// fullQuote runs triage quote, with --json and without, and returns both.
func (s *quoteStudy) fullQuote(t *testing.T) (quote.Quote, string) {
	t.Helper()
	var q quote.Quote
	var text string
	for _, asJSON := range []bool{true, false} {
		env, out, logs := testEnv(nil)
		args := []string{"quote", s.cfg}
		if asJSON {
			args = []string{"quote", "--json", s.cfg}
		}
		if err := Run(context.Background(), args, env); err != nil {
			t.Fatalf("quote: %v\n%s", err, logs)
		}
		if !asJSON {
			text = out.String()
			continue
		}
		if err := json.Unmarshal([]byte(out.String()), &q); err != nil {
			t.Fatalf("quote output: %v\n%s", err, out)
		}
	}
	return q, text
}

func deref(d *float64) any {
	if d == nil {
		return nil
	}
	return *d
}
