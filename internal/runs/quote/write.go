package quote

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// Text writes q as an aligned table with a total line, then its notes.
// Figures a row lacks are "—": expected output without Phase 0 costs,
// dollars without a price, bounds of calls without max_tokens
// ("unbounded").
func Text(w io.Writer, q Quote) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\tendpoint\tcalls\tcached\tinput tokens\tmax output tokens\texpected output tokens\t$ at most\t$ expected\t")
	var total Row
	total.HasExpected = len(q.Rows) > 0
	allMax, allExpected := len(q.Rows) > 0, len(q.Rows) > 0
	var maxD, expD float64
	for _, r := range q.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", r.Phase, r.Endpoint, r.Calls, r.Cached, r.InputTokens,
			bound(r), expected(r), dollars(r.MaxDollars), dollars(r.ExpectedDollars))
		total.Calls += r.Calls
		total.Cached += r.Cached
		total.InputTokens += r.InputTokens
		total.MaxOutputTokens += r.MaxOutputTokens
		total.Unbounded = total.Unbounded || r.Unbounded
		total.ExpectedOutputTokens += r.ExpectedOutputTokens
		total.HasExpected = total.HasExpected && r.HasExpected
		if r.MaxDollars == nil {
			allMax = false
		} else {
			maxD += *r.MaxDollars
		}
		if r.ExpectedDollars == nil {
			allExpected = false
		} else {
			expD += *r.ExpectedDollars
		}
	}
	if allMax {
		total.MaxDollars = &maxD
	}
	if allExpected {
		total.ExpectedDollars = &expD
	}
	fmt.Fprintf(tw, "total\t\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", total.Calls, total.Cached, total.InputTokens,
		bound(total), expected(total), dollars(total.MaxDollars), dollars(total.ExpectedDollars))
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(q.Spent) > 0 {
		var calls, unpriced, in, out int64
		var dollars float64
		for _, s := range q.Spent {
			calls += s.Calls
			dollars += s.Dollars
			in, out = in+s.InputTokens, out+s.OutputTokens
			if s.Unpriced {
				unpriced += s.Calls
			}
		}
		line := fmt.Sprintf("spent so far: $%.2f over %d calls", dollars, calls)
		switch {
		case unpriced == calls:
			line = fmt.Sprintf("spent so far: %d calls, %d input and %d output tokens, unpriced (their endpoints have no price)", calls, in, out)
		case unpriced > 0:
			line += fmt.Sprintf(", %d of them unpriced (their endpoints have no price), counted $0", unpriced)
		}
		if _, err := fmt.Fprintln(w, line+" (triage report has the detail)"); err != nil {
			return err
		}
	}
	for _, u := range q.Unrecorded {
		price := "unpriced"
		if u.Dollars != nil {
			price = "$" + dollars(u.Dollars) + " at the batch price"
		}
		answers := "answers"
		if u.Answers == 1 {
			answers = "answer"
		}
		if _, err := fmt.Fprintf(w, "not yet recorded: %s %s: %d %s of finished batches that no call reported (a process stopped first),\n"+
			"  %d input and %d output tokens, %s: paid to the provider; the next batch baseline records them in the spend record, where a spend cap counts them\n",
			u.Phase, u.Endpoint, u.Answers, answers, u.InputTokens, u.OutputTokens, price); err != nil {
			return err
		}
	}
	for _, n := range q.Notes {
		if _, err := fmt.Fprintln(w, "note:", n); err != nil {
			return err
		}
	}
	return nil
}

// JSON writes q as one indented JSON document.
func JSON(w io.Writer, q Quote) error {
	if q.Rows == nil {
		q.Rows = []Row{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(q)
}

func bound(r Row) string {
	if r.Unbounded {
		return "unbounded"
	}
	return strconv.FormatInt(r.MaxOutputTokens, 10)
}

func expected(r Row) string {
	if !r.HasExpected {
		return "—"
	}
	return strconv.FormatInt(r.ExpectedOutputTokens, 10)
}

func dollars(d *float64) string {
	if d == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f", *d)
}
