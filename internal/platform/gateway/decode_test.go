package gateway

import (
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// FuzzDescribeDecodeError: whatever protojson refuses, describing it
// neither panics nor invents a field: it is "body" or a path of the value.
func FuzzDescribeDecodeError(f *testing.F) {
	for _, seed := range []string{
		`{"items": [{"id": "a", "cost": 1e30}]}`,
		`{"items": [{"id": "a", "colour": "red"}]}`,
		"{\"items\": [\n{\"id\": \"é\", \"cost\": \"x\"}]}",
		`{"items": [], "items": []}`,
		`{"budgets": [{"alpha": "half"}]}`,
		`{"items": 5}`,
		`{"random": {"method": "NOPE"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		err := protojson.Unmarshal(raw, &triagev1.ComputeReferencesRequest{})
		if err == nil {
			return
		}
		field, description := describeDecodeError(raw, err)
		if description == "" {
			t.Fatalf("no description for %q", err)
		}
		if field == bodyField {
			return
		}
		if _, offsets := jsonloc.BuildOffsets(raw); offsets[field] == 0 {
			t.Fatalf("field %q is not a value of %q (error %q)", field, raw, err)
		}
	})
}
