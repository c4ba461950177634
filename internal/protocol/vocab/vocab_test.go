package vocab

import (
	"slices"
	"testing"
)

func TestOrders(t *testing.T) {
	tests := []struct {
		name      string
		got, want []string
	}{
		{"regimes", sortedRegimes(Enforced, "X", Advisory), []string{"U", "E", "X"}},
		{"strategies", sortedStrategies(Random, ShortestFirst, LLM, AllInOrder), []string{"llm", "all_in_order", "random", "shortest_first"}},
		{"variants", sortedVariants(Exam, Neutral, Default, Agent), []string{"default", "A", "B", "C"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.Equal(tt.got, tt.want) {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
}

func TestListsAreSortedAndValid(t *testing.T) {
	for _, r := range Regimes() {
		if !r.Valid() {
			t.Errorf("regime %q not valid", r)
		}
	}
	if !slices.IsSortedFunc(Regimes(), CompareRegimes) {
		t.Error("Regimes() not in CompareRegimes order")
	}
	for _, s := range Strategies() {
		if !s.Valid() {
			t.Errorf("strategy %q not valid", s)
		}
	}
	if !slices.IsSortedFunc(Strategies(), CompareStrategies) {
		t.Error("Strategies() not in CompareStrategies order")
	}
	for _, v := range Variants() {
		if !v.Valid() {
			t.Errorf("variant %q not valid", v)
		}
	}
	if !slices.IsSortedFunc(Variants(), CompareVariants) {
		t.Error("Variants() not in CompareVariants order")
	}
	if NoVariant.Valid() || Regime("X").Valid() || Strategy("oracle").Valid() {
		t.Error("unknown names reported valid")
	}
}

func sortedRegimes(in ...Regime) []string {
	slices.SortFunc(in, CompareRegimes)
	return strs(in)
}

func sortedStrategies(in ...Strategy) []string {
	slices.SortFunc(in, CompareStrategies)
	return strs(in)
}

func sortedVariants(in ...Variant) []string {
	slices.SortFunc(in, CompareVariants)
	return strs(in)
}

func strs[T ~string](in []T) []string {
	out := make([]string, len(in))
	for i, v := range in {
		out[i] = string(v)
	}
	return out
}
