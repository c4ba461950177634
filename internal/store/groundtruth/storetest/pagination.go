package storetest

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// filtered returns the records of all that q's filters keep.
func filtered(all []groundtruth.Record, q groundtruth.ListQuery) []groundtruth.Record {
	var out []groundtruth.Record
	for _, r := range all {
		if (q.Solver == nil || r.Solver == *q.Solver) && (q.Dataset == "" || r.Dataset == q.Dataset) {
			out = append(out, r)
		}
	}
	return out
}

func testListWalk(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	g := Gen{Models: 3, Datasets: 3, Problems: 37} // 666 records
	mustImport(t, s, g.Records())
	all := collect(g)
	solver := Solver(1, 0)
	filters := []groundtruth.ListQuery{
		{},
		{Solver: &solver},
		{Dataset: Dataset(2)},
		{Solver: &solver, Dataset: Dataset(0)},
		{Dataset: "no-such-dataset"},
		{Solver: &groundtruth.Solver{Model: "nobody", Mode: groundtruth.ModeStandard}},
	}
	for _, f := range filters {
		want := filtered(all, f)
		for _, size := range []int{1, 7, 37, 100, 665, 666, 667, 0} {
			name := fmt.Sprintf("solver=%v/dataset=%q/size=%d", f.Solver, f.Dataset, size)
			if size == 1 && len(want) > 200 {
				continue // slow and no more telling than 7
			}
			t.Run(name, func(t *testing.T) {
				q := f
				q.PageSize = size
				per := size
				if per == 0 {
					per = groundtruth.DefaultPageSize
				}
				var got []groundtruth.Record
				for pages := 1; ; pages++ {
					p, err := s.List(context.Background(), q)
					if err != nil {
						t.Fatalf("page %d: %v", pages, err)
					}
					if len(p.Records) > per {
						t.Fatalf("page %d has %d records, page size %d", pages, len(p.Records), per)
					}
					got = append(got, p.Records...)
					if p.NextPageToken == "" {
						if len(p.Records) == 0 && pages > 1 {
							t.Fatalf("page %d is empty: the token before it promised more", pages)
						}
						break
					}
					if len(p.Records) != per {
						t.Fatalf("page %d has %d records and a next token, want a full page of %d", pages, len(p.Records), per)
					}
					if pages > len(want)+1 {
						t.Fatal("too many pages")
					}
					q.PageToken = p.NextPageToken
				}
				wantRecords(t, got, want) // same order, no duplicates, no gaps
			})
		}
	}
}

func testListPageSize(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	g := Gen{Models: 1, Datasets: 1, Problems: 1201} // 2402 records
	mustImport(t, s, g.Records())
	tests := []struct {
		size, want int
	}{
		{0, groundtruth.DefaultPageSize},
		{1, 1},
		{groundtruth.MaxPageSize, groundtruth.MaxPageSize},
		{groundtruth.MaxPageSize + 1, groundtruth.MaxPageSize},
		{1 << 30, groundtruth.MaxPageSize},
	}
	for _, tc := range tests {
		p, err := s.List(context.Background(), groundtruth.ListQuery{PageSize: tc.size})
		if err != nil {
			t.Fatalf("PageSize %d: %v", tc.size, err)
		}
		if len(p.Records) != tc.want || p.NextPageToken == "" {
			t.Fatalf("PageSize %d: %d records, token %q; want %d and a token", tc.size, len(p.Records), p.NextPageToken, tc.want)
		}
	}
	_, err := s.List(context.Background(), groundtruth.ListQuery{PageSize: -1})
	var inv *apperr.InvalidArgumentError
	if !errors.As(err, &inv) {
		t.Fatalf("PageSize -1: error %v, want an *apperr.InvalidArgumentError", err)
	}
}

func testListBadToken(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	mustImport(t, s, Gen{Models: 2, Datasets: 2, Problems: 10}.Records())
	ctx := context.Background()
	solver, other := Solver(0, 0), Solver(1, 0)
	issue := func(q groundtruth.ListQuery) string {
		q.PageSize = 3
		p, err := s.List(ctx, q)
		if err != nil || p.NextPageToken == "" {
			t.Fatalf("List(%+v) = token %q, %v; want a token", q, p.NextPageToken, err)
		}
		return p.NextPageToken
	}
	plain := issue(groundtruth.ListQuery{})
	bySolver := issue(groundtruth.ListQuery{Solver: &solver})
	byDataset := issue(groundtruth.ListQuery{Dataset: Dataset(0)})
	b64 := base64.RawURLEncoding.EncodeToString
	tests := []struct {
		name string
		q    groundtruth.ListQuery
	}{
		{"garbage", groundtruth.ListQuery{PageToken: "not a token!"}},
		{"not json", groundtruth.ListQuery{PageToken: b64([]byte("hello"))}},
		{"empty json", groundtruth.ListQuery{PageToken: b64([]byte("{}"))}},
		{"truncated", groundtruth.ListQuery{PageToken: plain[:len(plain)/2]}},
		{"padded", groundtruth.ListQuery{PageToken: plain + "=="}},
		{"huge", groundtruth.ListQuery{PageToken: strings.Repeat("A", 1<<20)}},
		{"unfiltered token with a solver", groundtruth.ListQuery{Solver: &solver, PageToken: plain}},
		{"solver token without filter", groundtruth.ListQuery{PageToken: bySolver}},
		{"solver token with another solver", groundtruth.ListQuery{Solver: &other, PageToken: bySolver}},
		{"solver token with a dataset too", groundtruth.ListQuery{Solver: &solver, Dataset: Dataset(0), PageToken: bySolver}},
		{"dataset token with another dataset", groundtruth.ListQuery{Dataset: Dataset(1), PageToken: byDataset}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := s.List(ctx, tc.q)
			if !errors.Is(err, groundtruth.ErrInvalidPageToken) {
				t.Fatalf("List = %d records, error %v; want ErrInvalidPageToken", len(p.Records), err)
			}
		})
	}
	// The right filters with another page size are fine.
	if _, err := s.List(ctx, groundtruth.ListQuery{Solver: &solver, PageToken: bySolver, PageSize: 50}); err != nil {
		t.Fatalf("token with the same filters and another page size: %v", err)
	}
}

func testListSeesLaterInserts(t *testing.T, h Harness) {
	s := h.Open(t, "db")
	ctx := context.Background()
	var rs []groundtruth.Record
	for _, id := range []string{"b", "d", "f", "h"} {
		rs = append(rs, sample("m", groundtruth.ModeStandard, "ds", id))
	}
	mustImport(t, s, Slice(rs...))
	p, err := s.List(ctx, groundtruth.ListQuery{PageSize: 2})
	if err != nil || len(p.Records) != 2 || p.Records[1].ProblemID != "d" {
		t.Fatalf("first page = %+v, %v", p.Records, err)
	}
	// Insert one key before the cursor and one after it.
	mustImport(t, s, Slice(sample("m", groundtruth.ModeStandard, "ds", "a"), sample("m", groundtruth.ModeStandard, "ds", "e")))
	rest := listAll(t, s, groundtruth.ListQuery{PageSize: 2, PageToken: p.NextPageToken})
	var ids []string
	for _, r := range rest {
		ids = append(ids, r.ProblemID)
	}
	if got := strings.Join(ids, ","); got != "e,f,h" {
		t.Fatalf("rest of the listing = %s, want e,f,h", got)
	}
}
