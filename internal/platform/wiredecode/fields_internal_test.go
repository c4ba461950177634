package wiredecode

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// TestFieldsAreTheProtos: the field numbers this package decodes by are
// the API's, and the messages it decodes whole (items, steps, the inline
// pool, the batch) have no field it does not know. A field added to one of
// them would only make Unmarshal decline, never misread, but this says
// where to teach it the new field.
func TestFieldsAreTheProtos(t *testing.T) {
	fields := []struct {
		msg  proto.Message
		name protoreflect.Name
		num  protowire.Number
	}{
		{&triagev1.ScorePlanRequest{}, "stored", poolAndPlan.stored},
		{&triagev1.ScorePlanRequest{}, "inline", poolAndPlan.inline},
		{&triagev1.ScorePlanRequest{}, "plan", poolAndPlan.plan},
		{&triagev1.ExecutePlanRequest{}, "stored", poolAndPlan.stored},
		{&triagev1.ExecutePlanRequest{}, "inline", poolAndPlan.inline},
		{&triagev1.ExecutePlanRequest{}, "plan", poolAndPlan.plan},
		{&triagev1.ComputeReferencesRequest{}, "items", 1},
		{&triagev1.InlinePool{}, "items", inlineItems},
		{&triagev1.GroundTruthItem{}, "id", itemID},
		{&triagev1.GroundTruthItem{}, "cost", itemCost},
		{&triagev1.GroundTruthItem{}, "correct", itemCorrect},
		{&triagev1.GroundTruthItem{}, "value", itemValue},
		{&triagev1.PlanStep{}, "id", stepID},
		{&triagev1.PlanStep{}, "tokens", stepTokens},
		{&triagev1.ScorePlansRequest{}, "requests", batchRequests},
	}
	for _, f := range fields {
		d := f.msg.ProtoReflect().Descriptor()
		fd := d.Fields().ByName(f.name)
		if fd == nil || protowire.Number(fd.Number()) != f.num {
			t.Errorf("%s.%s: this package decodes it as field %d, the proto has %v", d.FullName(), f.name, f.num, fd)
		}
	}
	whole := map[proto.Message]int{&triagev1.InlinePool{}: 1, &triagev1.GroundTruthItem{}: 4, &triagev1.PlanStep{}: 2, &triagev1.ScorePlansRequest{}: 1}
	for msg, n := range whole {
		if d := msg.ProtoReflect().Descriptor(); d.Fields().Len() != n {
			t.Errorf("%s has %d fields, this package decodes %d: teach scanItem/scanStep/fill the new one", d.FullName(), d.Fields().Len(), n)
		}
	}
}
