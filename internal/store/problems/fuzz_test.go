package problems

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func FuzzRead(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","dataset":"d","text":"t"}`,
		`{"id":"a","dataset":"d","text":"t","value":0.5,"grading":{"x":[1,"<"]},"unsolvable":true}`,
		"{\"id\":\"a\",\"dataset\":\"d\",\"text\":\"t\"}\n\n{\"id\":\"a\",\"dataset\":\"e\",\"text\":\"\\ud800\"}",
		`{"id":"a","dataset":"d","text":"t","value":1e-320}`,
		`{"id":"a","dataset":"d"`,
		`[]`, ``, "\xff",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Read(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		var buf bytes.Buffer
		for _, p := range got {
			if p.ID == "" || p.Dataset == "" || p.Text == "" || !(p.Value > 0 && p.Value <= MaxValue) {
				t.Fatalf("accepted invalid problem %+v", p)
			}
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatalf("Marshal(%+v): %v", p, err)
			}
			buf.Write(append(b, '\n'))
		}
		again, err := Read(&buf, "again")
		if err != nil {
			t.Fatalf("re-reading %q: %v", buf.Bytes(), err)
		}
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("round trip changed problems:\n%+v\n%+v", got, again)
		}
	})
}
