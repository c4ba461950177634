package report

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestScoreRecordJSONIsStable pins the keys runs store records under: a
// renamed field must not break the runs already on disk.
func TestScoreRecordJSONIsStable(t *testing.T) {
	eta := 1.0 / 3
	r := ScoreRecord{Model: "m", Mode: "extended", Dataset: "aime", Pool: 3, Alpha: 0.5, Variant: "B", Strategy: "llm",
		Regime: "E", Value: 2, Oracle: 4, Random: 1, RandomStderr: 0.02, Eta: &eta, Regret: 0.5, RegretDefined: true,
		PoolSize: 28, Dropped: 2, Short: true}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"m","mode":"extended","dataset":"aime","pool":3,"alpha":0.5,"variant":"B","strategy":"llm","regime":"E",` +
		`"value":2,"oracle":4,"random":1,"random_stderr":0.02,"eta":0.3333333333333333,"regret":0.5,"regret_defined":true,` +
		`"pool_size":28,"dropped":2,"short":true}`
	if string(got) != want {
		t.Errorf("stored form changed:\n got %s\nwant %s", got, want)
	}
	var back ScoreRecord
	raw, _ := json.Marshal(r)
	if err := json.Unmarshal(raw, &back); err != nil || !reflect.DeepEqual(back, r) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	// An excluded record stores no η: null, never 0 (SPEC §5).
	r.Excluded, r.Detail, r.Eta = "error", "model down", nil
	raw, _ = json.Marshal(r)
	if !strings.Contains(string(raw), `"eta":null`) {
		t.Errorf("excluded record stored as %s; want \"eta\":null", raw)
	}
	back = ScoreRecord{}
	if err := json.Unmarshal(raw, &back); err != nil || !reflect.DeepEqual(back, r) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}
