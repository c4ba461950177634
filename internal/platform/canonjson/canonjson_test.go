package canonjson

import "testing"

func TestMarshal(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"keys sorted, no space, no newline", map[string]any{"b": 1, "a": []int{1, 2}}, `{"a":[1,2],"b":1}`},
		{"no HTML escaping", "if a < b && c > d", `"if a < b && c > d"`},
		{"struct fields in order", struct {
			Z string `json:"z"`
			A bool   `json:"a,omitempty"`
		}{Z: "x"}, `{"z":"x"}`},
	}
	for _, tt := range tests {
		got, err := Marshal(tt.v)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: Marshal = %s, %v; want %s", tt.name, got, err, tt.want)
		}
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("Marshal(func) = nil error, want json's")
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		raw, want, wantErr string
	}{
		{`{ "b": 1.50, "a": {"d": [1, 2e3], "c": "<&>"} }`, `{"a":{"c":"<&>","d":[1,2e3]},"b":1.50}`, ""},
		{`"x"`, `"x"`, ""},
		{`{"a":1} {"b":2}`, "", "trailing data after JSON value"},
		{`{"a":`, "", "unexpected EOF"},
	}
	for _, tt := range tests {
		got, err := Canonical([]byte(tt.raw))
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Canonical(%s) = %s, %v; want error %q", tt.raw, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || string(got) != tt.want {
			t.Errorf("Canonical(%s) = %s, %v; want %s", tt.raw, got, err, tt.want)
		}
	}
}
