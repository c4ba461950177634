package wiredecode

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// TestSlabsHoldTheKeptIDsAlone: an id given twice in an item or a step is
// copied once, the last (the one proto keeps), and the items' ids and the
// steps' are in slabs of their own, so that a reference kept to an item's
// id holds no more than the pool's ids.
func TestSlabsHoldTheKeptIDsAlone(t *testing.T) {
	long := string(make([]byte, 4096))
	item := func(ids ...string) []byte {
		var b []byte
		for _, id := range ids {
			b = protowire.AppendString(protowire.AppendTag(b, itemID, protowire.BytesType), id)
		}
		return b
	}
	var pool, data []byte
	pool = protowire.AppendBytes(protowire.AppendTag(pool, inlineItems, protowire.BytesType), item(long, "p1"))
	pool = protowire.AppendBytes(protowire.AppendTag(pool, inlineItems, protowire.BytesType), item("p22"))
	data = protowire.AppendBytes(protowire.AppendTag(data, 2, protowire.BytesType), pool)
	data = protowire.AppendBytes(protowire.AppendTag(data, 4, protowire.BytesType), item(long, "step-1")) // PlanStep.id is field 1 too
	s := shape{layout: poolAndPlan}
	if !s.scan(data) {
		t.Fatal("scan declined the request")
	}
	if s.itemIDBytes != len("p1p22") || s.stepIDBytes != len("step-1") {
		t.Errorf("slabs of %d and %d bytes, want %d for the items' ids and %d for the steps'", s.itemIDBytes, s.stepIDBytes, len("p1p22"), len("step-1"))
	}
	got, want := &triagev1.ScorePlanRequest{}, &triagev1.ScorePlanRequest{}
	if !Unmarshal(data, got) {
		t.Fatal("Unmarshal declined the request")
	}
	if err := proto.Unmarshal(data, want); err != nil || !proto.Equal(got, want) {
		t.Errorf("Unmarshal = %v, proto.Unmarshal = %v (%v)", got, want, err)
	}
}
