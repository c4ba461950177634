package gtfile

import (
	"testing"

	"google.golang.org/protobuf/proto"
)

// FuzzLine: a JSONL line either fails with a message or parses
// to a record that survives a format/parse round trip unchanged.
func FuzzLine(f *testing.F) {
	for _, seed := range []string{
		`{"model":"m","mode":"extended","dataset":"aime","problem_id":"2024-I-1","cost":1200,"correct":true}`,
		`{"model":"m","mode":"standard","dataset":"d","problem_id":"p","cost":0,"gradeable":false,"error":"timeout","latency_ms":30000.5,"measured_at":"2026-01-02T03:04:05.123456Z"}`,
		`{"model":"m","mode":"extended","dataset":"d","problem_id":"p","cost":7953,"correct":true,"cost_rule":"completion_plus_reasoning","measured_at":"2026-01-02T03:04:05Z"}`,
		`{"model":"m","mode":"extended","dataset":"d","problem_id":"p","cost":1,"cost_rule":"max"}`,
		`{"model":"m","mode":"extended","dataset":"d","problem_id":"p","cost":5,"sample":4,"measured_at":"2026-01-02T03:04:05Z"}`,
		`{"model":"m","mode":"fast"}`,
		`{"cost":"x"}`,
		`{"colour":1}`,
		`{} {}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ParseLine(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if rec.GetMeasuredTime() == nil {
			return // the import stamps it; nothing to round-trip
		}
		line, err := FormatLine(rec)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseLine(line)
		if err != nil {
			t.Fatalf("formatted line does not parse: %v\n%s", err, line)
		}
		if rec.GetLatency().AsDuration() != again.GetLatency().AsDuration() {
			return // sub-nanosecond latencies round; not a format bug
		}
		if !proto.Equal(rec, again) {
			t.Fatalf("round trip changed the record:\n%v\n%v", rec, again)
		}
	})
}
