package pool

import "testing"

func TestSums(t *testing.T) {
	items := []Item{
		{ID: "a", Cost: 3, Value: 0.1, Correct: true},
		{ID: "b", Cost: 5, Value: 0.2, Correct: false},
		{ID: "c", Cost: 7, Value: 0.7, Correct: true},
	}
	if got := TotalCost(items); got != 15 {
		t.Errorf("TotalCost = %d, want 15", got)
	}
	all := []bool{true, true, true}
	if got, want := TotalGain(items), SumGain(items, all); got != want {
		t.Errorf("TotalGain = %v, SumGain(all) = %v; want bit-identical", got, want)
	}
	if got := SumGain(items, []bool{false, true, false}); got != 0 {
		t.Errorf("SumGain of an incorrect item = %v, want 0", got)
	}
	a, c := items[0].Value, items[2].Value
	if got := SumGain(items, []bool{true, false, true}); got != a+c {
		t.Errorf("SumGain = %v, want %v", got, a+c)
	}
}
