package jsonloc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func TestMembers(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []Member
		ok        bool
	}{
		{"empty object", ` {} `, nil, true},
		{"every kind of value", `{"s":"a\"b", "n": -1.5e3 ,"t":true,"f":false,"z":null,"o":{"x":[1,{}]},"a":[ "]" ]}`, []Member{
			{"s", []byte(`"a\"b"`)}, {"n", []byte(`-1.5e3`)}, {"t", []byte(`true`)}, {"f", []byte(`false`)},
			{"z", []byte(`null`)}, {"o", []byte(`{"x":[1,{}]}`)}, {"a", []byte(`[ "]" ]`)},
		}, true},
		{"keys decoded, repeats kept", `{"co\u0073t":1,"cost":2}`, []Member{{"cost", []byte("1")}, {"cost", []byte("2")}}, true},
		{"an array", `[1]`, nil, false},
		{"a string", `"x"`, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Members([]byte(tc.doc))
			if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Members(%s) = %q, %v; want %q, %v", tc.doc, got, ok, tc.want, tc.ok)
			}
			if want, wantOK := membersByTokens([]byte(tc.doc)); ok != wantOK || !reflect.DeepEqual(got, want) {
				t.Errorf("encoding/json's tokens give %q, %v", want, wantOK)
			}
		})
	}
}

// FuzzMembers checks Members against encoding/json's own tokens on every
// document encoding/json decodes.
func FuzzMembers(f *testing.F) {
	for _, doc := range []string{`{"a":1,"b":[{"c":2},3]}`, ` { "a" : { "b" : "}" } , "a" : null } `, `[{"a":1}]`, `{"\xff":"\u00e9"}`, `7`} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			return
		}
		got, ok := Members(doc)
		if want, wantOK := membersByTokens(doc); ok != wantOK || !reflect.DeepEqual(got, want) {
			t.Errorf("Members(%q) = %q, %v; encoding/json's tokens give %q, %v", doc, got, ok, want, wantOK)
		}
	})
}

// membersByTokens is Members as encoding/json's tokens find them: the
// reference the scanner is checked against.
func membersByTokens(data []byte) ([]Member, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return nil, false
	}
	var out []Member
	for dec.More() {
		tok, _ := dec.Token()
		k, _ := tok.(string)
		var raw json.RawMessage
		_ = dec.Decode(&raw)
		out = append(out, Member{Key: k, Value: raw})
	}
	return out, true
}
