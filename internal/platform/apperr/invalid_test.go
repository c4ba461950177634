package apperr

import (
	"errors"
	"fmt"
	"testing"
)

func TestViolations(t *testing.T) {
	var v Violations
	if v.Err() != nil {
		t.Fatal("empty Violations must give a nil error")
	}
	v.Add("items[0].cost", "must be > 0, got %d", -1)
	v.Add("budgets", "at least one budget is required")
	err := v.Err()
	var inv *InvalidArgumentError
	if !errors.As(err, &inv) {
		t.Fatalf("Err() = %T, want *InvalidArgumentError", err)
	}
	want := "invalid argument: items[0].cost: must be > 0, got -1; budgets: at least one budget is required"
	if err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}

func TestViolationsLimit(t *testing.T) {
	v := Violations{limit: 3}
	for i := range 10 {
		v.Add(fmt.Sprintf("items[%d].id", i), "empty")
	}
	var inv *InvalidArgumentError
	if !errors.As(v.Err(), &inv) {
		t.Fatal("want *InvalidArgumentError")
	}
	if got := len(inv.Violations); got != 4 {
		t.Fatalf("kept %d violations, want 3 plus one summary", got)
	}
	if last := inv.Violations[3]; last.Field != "request" {
		t.Errorf("summary violation = %+v", last)
	}
}
