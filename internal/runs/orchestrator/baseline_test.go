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
	got := batches(list)
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
	if len(batches(nil)) != 0 {
		t.Error("no problems should give no batches")
	}
}
