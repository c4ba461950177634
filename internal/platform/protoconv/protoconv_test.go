package protoconv

import (
	"errors"
	"math"
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
	}
	var v apperr.Violations
	if ValidateItems(&v, "inline.items", items) {
		t.Fatal("invalid items accepted")
	}
	want := "inline.items[1].id inline.items[1].cost inline.items[2].id inline.items[2].value"
	if got := fields(v.Err()); got != want {
		t.Errorf("fields = %q, want %q", got, want)
	}
	got := PoolItems(items[:1])
	if got[0].Value != 1 || got[0].ID != "a" || got[0].Cost != 1 {
		t.Errorf("PoolItems = %+v, want value 1 by default", got)
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
