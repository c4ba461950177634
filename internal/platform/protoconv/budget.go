package protoconv

import (
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/protocol/budget"
)

// ValidateBudget adds a violation under field if b is missing or out of
// range, and reports whether it is valid. It needs no pool: α is checked for
// range only.
func ValidateBudget(v *apperr.Violations, field string, b *triagev1.Budget) bool {
	switch k := b.GetKind().(type) {
	case *triagev1.Budget_Tokens:
		if k.Tokens < 0 {
			v.Add(field+".tokens", "must be ≥ 0, got %d", k.Tokens)
			return false
		}
	case *triagev1.Budget_Alpha:
		if !(k.Alpha > 0 && k.Alpha <= 1) {
			v.Add(field+".alpha", "must be in (0, 1], got %v", k.Alpha)
			return false
		}
	default:
		v.Add(field, "set either tokens or alpha")
		return false
	}
	return true
}

// Tokens returns the budget in tokens for a pool whose total cost is total,
// and the α it came from (nil for an explicit budget). b must be valid.
func Tokens(b *triagev1.Budget, total int64) (int64, *float64, error) {
	tokens, err := BudgetTokens(b, total)
	if k, ok := b.GetKind().(*triagev1.Budget_Alpha); ok {
		alpha := k.Alpha
		return tokens, &alpha, err
	}
	return tokens, nil, err
}

// BudgetTokens is Tokens without α, for callers that want only B.
func BudgetTokens(b *triagev1.Budget, total int64) (int64, error) {
	if k, ok := b.GetKind().(*triagev1.Budget_Alpha); ok {
		return budget.FromAlpha(k.Alpha, total)
	}
	return b.GetTokens(), nil
}
