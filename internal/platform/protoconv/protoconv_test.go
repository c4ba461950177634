package protoconv

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
)

func fields(err error) string {
	var inv *apperr.InvalidArgumentError
	if !errors.As(err, &inv) {
		return ""
	}
	var out []string
	for _, v := range inv.Violations {
		out = append(out, v.Field)
	}
	return strings.Join(out, " ")
}

func TestValidateItems(t *testing.T) {
	items := []*triagev1.GroundTruthItem{
		{Id: "a", Cost: 1},
		{Id: "", Cost: 0},
		{Id: "a", Cost: 5, Value: proto.Float64(math.Inf(1))},
		{Id: "b\x00", Cost: 2},
	}
	var v apperr.Violations
	if ValidateItems(&v, "inline.items", items) {
		t.Fatal("invalid items accepted")
	}
	want := "inline.items[1].id inline.items[1].cost inline.items[2].id inline.items[2].value inline.items[3].id"
	if got := fields(v.Err()); got != want {
		t.Errorf("fields = %q, want %q", got, want)
	}
	got := PoolItems(items[:1])
	if got[0].Value != 1 || got[0].ID != "a" || got[0].Cost != 1 {
		t.Errorf("PoolItems = %+v, want value 1 by default", got)
	}
}

// TestValidateItemsDuplicates checks duplicate ids on both sides of
// smallPool, where mayRepeat stops answering without a map.
func TestValidateItemsDuplicates(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n        int
		dup      int // index given the id of item 3; -1 for none
		wantMsgs string
	}{
		{"one item", 1, -1, ""},
		{"small, distinct", 30, -1, ""},
		{"small, repeated", 30, 29, `inline.items[29].id: duplicate id "p3" (first at index 3)`},
		{"at the bound, distinct", smallPool, -1, ""},
		{"at the bound, repeated", smallPool, 4, `inline.items[4].id: duplicate id "p3" (first at index 3)`},
		{"large, distinct", smallPool + 1, -1, ""},
		{"large, repeated", 300, 299, `inline.items[299].id: duplicate id "p3" (first at index 3)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := make([]*triagev1.GroundTruthItem, tc.n)
			for i := range items {
				items[i] = &triagev1.GroundTruthItem{Id: "p" + strconv.Itoa(i), Cost: 1}
			}
			if tc.dup >= 0 {
				items[tc.dup].Id = "p3"
			}
			var v apperr.Violations
			ok := ValidateItems(&v, "inline.items", items)
			var msgs []string
			var inv *apperr.InvalidArgumentError
			if errors.As(v.Err(), &inv) {
				for _, fv := range inv.Violations {
					msgs = append(msgs, fv.Field+": "+fv.Description)
				}
			}
			if got := strings.Join(msgs, "; "); got != tc.wantMsgs || ok != (tc.wantMsgs == "") {
				t.Errorf("ValidateItems = %v, %q; want %v, %q", ok, got, tc.wantMsgs == "", tc.wantMsgs)
			}
		})
	}
}

func TestBudget(t *testing.T) {
	tests := []struct {
		b      *triagev1.Budget
		ok     bool
		field  string
		tokens int64
	}{
		{&triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: 7}}, true, "", 7},
		{&triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 0.29}}, true, "", 29},
		{&triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: -1}}, false, "budget.tokens", 0},
		{&triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 0}}, false, "budget.alpha", 0},
		{&triagev1.Budget{}, false, "budget", 0},
		{nil, false, "budget", 0},
	}
	for _, tt := range tests {
		var v apperr.Violations
		if ok := ValidateBudget(&v, "budget", tt.b); ok != tt.ok || fields(v.Err()) != tt.field {
			t.Errorf("ValidateBudget(%v) = %v, %q; want %v, %q", tt.b, ok, fields(v.Err()), tt.ok, tt.field)
			continue
		}
		if tt.ok {
			tokens, alpha, err := Tokens(tt.b, 100)
			_, isAlpha := tt.b.GetKind().(*triagev1.Budget_Alpha)
			if err != nil || tokens != tt.tokens || (alpha != nil) != isAlpha {
				t.Errorf("Tokens(%v) = %d, %v, %v; want %d", tt.b, tokens, alpha, err, tt.tokens)
			}
		}
	}
}

func TestCheckWork(t *testing.T) {
	tests := []struct {
		work, limit float64
		want        string // "" when within the limit
	}{
		{work: 1e8, limit: 1e8},
		{work: 6.4e12, limit: 1e8, want: "n = 6.4e12 exceeds 1e8, the most one request may ask for; split it"},
		{work: 2_200_000, limit: 1e6, want: "n = 2.2e6 exceeds 1e6, the most one request may ask for; split it"},
		{work: 999_999, limit: 10, want: "n = 999999 exceeds 10, the most one request may ask for; split it"},
		{work: 100_000_001, limit: 1e8, want: "n = 100000001 exceeds 100000000, the most one request may ask for; split it"},
	}
	for _, tt := range tests {
		var v apperr.Violations
		ok := CheckWork(&v, "f", "n", tt.work, tt.limit, "split it")
		if ok != (tt.want == "") {
			t.Errorf("CheckWork(%g, %g) = %v", tt.work, tt.limit, ok)
		}
		var inv *apperr.InvalidArgumentError
		if tt.want == "" {
			if v.Err() != nil {
				t.Errorf("CheckWork(%g, %g) added %v", tt.work, tt.limit, v.Err())
			}
			continue
		}
		if !errors.As(v.Err(), &inv) || inv.Violations[0].Field != "f" || inv.Violations[0].Description != tt.want {
			t.Errorf("CheckWork(%g, %g) = %v, want %q", tt.work, tt.limit, v.Err(), tt.want)
		}
	}
	for x, want := range map[float64]string{0: "0", 30: "30", 1.5e-7: "1.5e-7", 123456789: "1.23e8", 1e100: "1e100"} {
		if got := sci(x, 3); got != want {
			t.Errorf("sci(%g, 3) = %q, want %q", x, got, want)
		}
	}
}
