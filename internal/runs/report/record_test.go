package report

import (
	"encoding/json"
	"testing"
)

// TestScoreRecordJSONIsStable pins the keys runs store records under: a
// renamed field must not break the runs already on disk.
func TestScoreRecordJSONIsStable(t *testing.T) {
	r := ScoreRecord{Model: "m", Mode: "extended", Dataset: "aime", Pool: 3, Alpha: 0.5, Variant: "B", Strategy: "llm",
		Regime: "E", Value: 2, Oracle: 4, Random: 1, Eta: 1.0 / 3, Regret: 0.5, RegretDefined: true, PoolSize: 30}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"m","mode":"extended","dataset":"aime","pool":3,"alpha":0.5,"variant":"B","strategy":"llm","regime":"E",` +
		`"value":2,"oracle":4,"random":1,"eta":0.3333333333333333,"regret":0.5,"regret_defined":true,"pool_size":30}`
	if string(got) != want {
		t.Errorf("stored form changed:\n got %s\nwant %s", got, want)
	}
	r.Excluded, r.Detail = "error", "model down"
	var back ScoreRecord
	raw, _ := json.Marshal(r)
	if err := json.Unmarshal(raw, &back); err != nil || back != r {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}
