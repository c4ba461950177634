package groundtruth

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

func TestPageTokenRoundTrip(t *testing.T) {
	a := Solver{Model: "m", Mode: ModeStandard}
	queries := []ListQuery{
		{},
		{Solver: &a},
		{Dataset: "aime"},
		{Solver: &a, Dataset: "aime"},
		{AllSamples: true},
		{Solver: &a, Dataset: "aime", AllSamples: true},
	}
	for _, q := range queries {
		last := cursor{Key: Key{Solver: Solver{Model: "mo\x00del", Mode: ModeExtended}, Dataset: "d/s\xff", ProblemID: "é 1"}}
		if q.AllSamples {
			last.Sample = 7
		}
		q.PageToken = encodePageToken(q, last)
		q.PageSize = 5 // page size is not part of the filter
		got, err := decodePageToken(q)
		if err != nil {
			t.Fatalf("decode(%+v): %v", q, err)
		}
		if *got != last {
			t.Fatalf("decoded %+v, want %+v", *got, last)
		}
	}
}

func TestFilterFingerprintSeparatesFilters(t *testing.T) {
	// Field boundaries must not blur: these filters differ only in where
	// one string ends and the next begins.
	s1, s2 := Solver{Model: "ab", Mode: "c"}, Solver{Model: "a", Mode: "bc"}
	qs := []ListQuery{
		{}, {Dataset: "x"}, {Solver: &s1}, {Solver: &s2}, {Solver: &s1, Dataset: "x"},
		{Solver: &Solver{}}, {Dataset: "solver"}, {AllSamples: true}, {Dataset: "x", AllSamples: true},
	}
	seen := map[string]int{}
	for i, q := range qs {
		fp := string(filterFingerprint(q))
		if j, dup := seen[fp]; dup {
			t.Fatalf("queries %d and %d share fingerprint %s", j, i, fp)
		}
		seen[fp] = i
	}
}

func TestDecodePageTokenErrors(t *testing.T) {
	good := encodePageToken(ListQuery{}, cursor{Key: Key{ProblemID: "p1"}})
	all := ListQuery{AllSamples: true}
	allRaw, _ := base64.RawURLEncoding.DecodeString(encodePageToken(all, cursor{Key: Key{ProblemID: "p1"}, Sample: 3}))
	raw, _ := base64.RawURLEncoding.DecodeString(good)
	enc := base64.RawURLEncoding.EncodeToString
	version2 := append([]byte{2}, raw[1:]...)
	for _, tok := range []string{
		"%%%", "e30", enc([]byte{1}), enc(version2), enc(raw[:len(raw)-1]), enc(append(raw, 0)),
		enc(append(raw[:len(raw)-3], 0xff, 0xff, 0xff)), good + "A",
		encodePageToken(ListQuery{Dataset: "a"}, cursor{}),
	} {
		_, err := decodePageToken(ListQuery{PageToken: tok})
		var inv *apperr.InvalidArgumentError
		if !errors.Is(err, ErrInvalidPageToken) || !errors.As(err, &inv) || inv.Violations[0].Field != "page_token" {
			t.Errorf("decode(%q) = %v; want ErrInvalidPageToken and a page_token violation", tok, err)
		}
	}
	// Listings of every sample: a plain token, a missing, huge or trailing
	// sample are refused.
	for _, tok := range []string{
		good,
		enc(allRaw[:len(allRaw)-1]),
		enc(append(allRaw[:len(allRaw)-1], 0xe9, 0x07)), // 1001
		enc(append(allRaw, 0)),
	} {
		_, err := decodePageToken(ListQuery{PageToken: tok, AllSamples: true})
		var inv *apperr.InvalidArgumentError
		if !errors.Is(err, ErrInvalidPageToken) || !errors.As(err, &inv) || inv.Violations[0].Field != "page_token" {
			t.Errorf("decode(%q) = %v; want ErrInvalidPageToken and a page_token violation", tok, err)
		}
	}
}

func TestPageSize(t *testing.T) {
	for _, tc := range []struct{ in, want int }{{0, DefaultPageSize}, {1, 1}, {MaxPageSize, MaxPageSize}, {MaxPageSize + 1, MaxPageSize}} {
		if got, err := pageSize(ListQuery{PageSize: tc.in}); err != nil || got != tc.want {
			t.Errorf("pageSize(%d) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	if _, err := pageSize(ListQuery{PageSize: -1}); err == nil {
		t.Error("pageSize(-1) succeeded")
	}
}
