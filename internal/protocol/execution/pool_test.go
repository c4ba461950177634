package execution

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

func TestNewPoolErrors(t *testing.T) {
	tests := []struct {
		name  string
		items []pool.Item
		want  string
	}{
		{"empty id", []pool.Item{item("a", 1, true), item("", 1, true)}, "items[1]: empty id"},
		{"duplicate id", []pool.Item{item("a", 1, true), item("b", 1, true), item("a", 2, false)}, `items[2]: id "a" repeats items[0]`},
		{"zero cost", []pool.Item{item("a", 0, true)}, "cost 0 is not positive"},
		{"negative cost", []pool.Item{item("a", -5, true)}, "cost -5 is not positive"},
		{"zero value", []pool.Item{{ID: "a", Cost: 1, Value: 0}}, "value 0 is not finite and positive"},
		{"negative value", []pool.Item{{ID: "a", Cost: 1, Value: -1}}, "value -1"},
		{"NaN value", []pool.Item{{ID: "a", Cost: 1, Value: math.NaN()}}, "value NaN"},
		{"infinite value", []pool.Item{{ID: "a", Cost: 1, Value: math.Inf(1)}}, "value +Inf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPool(tt.items)
			if err == nil || p != nil {
				t.Fatalf("NewPool = %v, %v; want an error", p, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestPoolLookup(t *testing.T) {
	items := []pool.Item{item("p1", 10, true), item("p2", 20, false), {ID: "p3", Cost: 5, Value: 2.5, Correct: true}}
	p := mustPool(t, items...)
	items[0].ID = "changed" // NewPool copied its input.
	if p.Len() != 3 {
		t.Fatalf("Len = %d", p.Len())
	}
	for i, id := range []string{"p1", "p2", "p3"} {
		got, ok := p.Lookup(id)
		if !ok || got != i || p.Item(got).ID != id {
			t.Fatalf("Lookup(%q) = %d, %v", id, got, ok)
		}
	}
	for _, id := range []string{"changed", "P1", "p1 ", "", "3"} {
		if _, ok := p.Lookup(id); ok {
			t.Fatalf("Lookup(%q) found an item", id)
		}
	}
	got := p.Items()
	got[0].ID = "x"
	if p.Item(0).ID != "p1" {
		t.Fatal("Items did not return a copy")
	}

	empty := mustPool(t)
	if empty.Len() != 0 || len(empty.Items()) != 0 {
		t.Fatal("empty pool not empty")
	}
	var none *Pool
	if _, ok := none.Lookup("p1"); ok || none.Len() != 0 || none.Items() != nil {
		t.Fatal("nil pool not empty")
	}
	if _, ok := empty.Lookup(""); ok {
		t.Fatal("empty pool found an item")
	}
}

// TestPoolLookupSizes checks the lookup's hash table at sizes around its
// powers of two: every id is found at its index, a repeat anywhere is
// reported against its first occurrence, and absent ids are not found.
func TestPoolLookupSizes(t *testing.T) {
	for _, n := range []int{1, 2, 3, 31, 32, 33, 1000} {
		items := make([]pool.Item, n)
		for i := range items {
			items[i] = item("p"+strconv.Itoa(i), 1, true)
		}
		p := mustPool(t, items...)
		for i, it := range items {
			if got, ok := p.Lookup(it.ID); !ok || got != i {
				t.Fatalf("n=%d: Lookup(%q) = %d, %v; want %d", n, it.ID, got, ok, i)
			}
		}
		for _, id := range []string{"p" + strconv.Itoa(n), "q0", "p-1"} {
			if _, ok := p.Lookup(id); ok {
				t.Fatalf("n=%d: Lookup(%q) found an item", n, id)
			}
		}
		repeated := append(append([]pool.Item(nil), items...), item("p"+strconv.Itoa(n/2), 2, false))
		want := fmt.Sprintf("items[%d]: id %q repeats items[%d]", n, "p"+strconv.Itoa(n/2), n/2)
		if _, err := NewPool(repeated); err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("n=%d: NewPool with a repeat = %v, want %q", n, err, want)
		}
	}
}
