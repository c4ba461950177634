package jsonloc

import "testing"

func TestKind(t *testing.T) {
	for raw, want := range map[string]string{
		`{"a":1}`: "object", ` [1]`: "array", `"x"`: "string", `true`: "bool", `false`: "bool",
		`null`: "null", `-3.5`: "number", `  `: "nothing", ``: "nothing",
	} {
		if got := Kind([]byte(raw)); got != want {
			t.Errorf("Kind(%q) = %q, want %q", raw, got, want)
		}
	}
}
