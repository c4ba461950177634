package jsonloc

import (
	"encoding/json"
	"testing"
)

func TestBlankBOM(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"{}", "{}"},
		{BOM + `{"a": 1}`, `   {"a": 1}`},
		{BOM + BOM + "{}", "   " + BOM + "{}"}, // only the first: a second is content
		{`{"a": "` + BOM + `"}`, `{"a": "` + BOM + `"}`},
	} {
		in := []byte(tc.in)
		got := BlankBOM(in)
		if string(got) != tc.want {
			t.Errorf("BlankBOM(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if string(in) != tc.in {
			t.Errorf("BlankBOM(%q) modified its input to %q", tc.in, in)
		}
	}
	var v map[string]int
	if err := json.Unmarshal(BlankBOM([]byte(BOM+`{"a": 1}`)), &v); err != nil || v["a"] != 1 {
		t.Errorf("a document with a BOM, blanked: %v, %v", v, err)
	}
}
