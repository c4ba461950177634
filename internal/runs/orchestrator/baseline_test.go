package orchestrator

import (
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

func TestBatchesStayUnderTheMessageLimit(t *testing.T) {
	big := strings.Repeat("x", 3<<20)
	var list []*triagev1.Problem
	for i := range 7 {
		list = append(list, &triagev1.Problem{Id: string(rune('a' + i)), Dataset: "lcb", Text: "t", GradingJson: big})
	}
	huge := &triagev1.Problem{Id: "huge", Dataset: "lcb", Text: "t", GradingJson: strings.Repeat("y", 9<<20)}
	list = append(list[:3], append([]*triagev1.Problem{huge}, list[3:]...)...)
	got := batches(list, 1)
	var sizes []int
	n := 0
	for _, b := range got {
		size := 0
		for _, p := range b {
			size += proto.Size(p)
			if list[n] != p {
				t.Fatalf("batches reorder problems")
			}
			n++
		}
		if size > maxBatchBytes && len(b) > 1 {
			t.Errorf("a batch of %d problems has %d bytes", len(b), size)
		}
		sizes = append(sizes, len(b))
	}
	if n != len(list) {
		t.Fatalf("batches hold %d of %d problems", n, len(list))
	}
	// 3 MiB each: two per batch; the 9 MiB one alone.
	if want := []int{2, 1, 1, 2, 2}; !slices.Equal(sizes, want) {
		t.Errorf("batch lengths %v, want %v", sizes, want)
	}
	if len(batches(nil, 1)) != 0 {
		t.Error("no problems should give no batches")
	}
}

// TestBatchesBoundCalls: a batch holds at most maxBatchCalls calls,
// problems × samples, and at least one problem.
func TestBatchesBoundCalls(t *testing.T) {
	list := make([]*triagev1.Problem, 2500)
	for i := range list {
		list[i] = &triagev1.Problem{Id: strings.Repeat("p", i%7+1), Dataset: "aime", Text: "t"}
	}
	for _, tc := range []struct {
		samples int
		want    []int
	}{
		{1, []int{1000, 1000, 500}},
		{0, []int{1000, 1000, 500}},
		{4, slices.Repeat([]int{250}, 10)},
		{3, append(slices.Repeat([]int{333}, 7), 169)},
		{20000, slices.Repeat([]int{1}, 2500)},
	} {
		var got []int
		for _, b := range batches(list, tc.samples) {
			got = append(got, len(b))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("samples %d: batch lengths %v, want %v", tc.samples, got, tc.want)
		}
	}
}
