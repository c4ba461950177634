package jsonloc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOddities(t *testing.T) {
	wide := func(n int, repeat string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		b.WriteString(`"` + repeat + `":0}`)
		return b.String()
	}
	tests := []struct {
		name, doc string
		want      []Oddity
	}{
		{"none", `{"a":1,"b":[{"c":2},3]}`, nil},
		{"repeated top-level key", `{"cost":10,` + "\n" + `"cost":20}`, []Oddity{{Line: 2, Field: "cost", Kind: RepeatedKey}}},
		{"repeated nested key", `{"m":{"x":1,"x":2}}`, []Oddity{{Line: 1, Field: "m.x", Kind: RepeatedKey}}},
		{"same key in two objects", `{"a":{"x":1},"b":{"x":2}}`, nil},
		{"null element", `{"items":[{"id":"a"},null]}`, []Oddity{{Line: 1, Field: "items[1]", Kind: NullElement}}},
		{"null value is not an element", `{"a":null}`, nil},
		{"key repeated by an escape", `{"cost":1,"co\u0073t":2}`, []Oddity{{Line: 1, Field: "cost", Kind: RepeatedKey}}},
		{"keys that differ in case", `{"cost":1,"Cost":2}`, nil},
		{"repeated key in a list's object", "[\n{\"a\":1},\n{\"b\":1,\"b\":2}]", []Oddity{{Line: 3, Field: "[1].b", Kind: RepeatedKey}}},
		{"null in a nested list", `{"a":[[1,null],[null]]}`, []Oddity{{Line: 1, Field: "a[0][1]", Kind: NullElement}, {Line: 1, Field: "a[1][0]", Kind: NullElement}}},
		{"null root", `null`, nil},
		{"wide object, repeated past the first keys", wide(40, "k33"), []Oddity{{Line: 1, Field: "k33", Kind: RepeatedKey}}},
		{"wide object, repeated among the first keys", wide(40, "k3"), []Oddity{{Line: 1, Field: "k3", Kind: RepeatedKey}}},
		{"wide object, no repeat", wide(40, "other"), nil},
		{"deep path shortened", `{"a":` + strings.Repeat("[", 20) + "null" + strings.Repeat("]", 20) + "}", []Oddity{{Line: 1, Field: "a[0][0][0][0][0][0][0]…[0][0][0][0][0][0][0][0]", Kind: NullElement}}},
		{"long key cut at a character", `{"` + strings.Repeat("k", 63) + `é":1,"` + strings.Repeat("k", 63) + `é":2}`, []Oddity{{Line: 1, Field: strings.Repeat("k", 63) + "…", Kind: RepeatedKey}}},
		{"a key repeated three times", `{"a":1,"a":2,"a":3}`, []Oddity{{Line: 1, Field: "a", Kind: RepeatedKey}, {Line: 1, Field: "a", Kind: RepeatedKey}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Oddities([]byte(tc.doc)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Oddities(%s) = %+v, want %+v", tc.doc, got, tc.want)
			}
			if got := odditiesByTokens([]byte(tc.doc)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("the token walker finds %+v, want %+v", got, tc.want)
			}
		})
	}
}

// FuzzOddities checks the one-pass walker against a walk of encoding/json's
// own tokens, on every document encoding/json decodes.
func FuzzOddities(f *testing.F) {
	for _, doc := range []string{
		`{"a":1,"b":[{"c":2},3]}`, `{"m":{"x":1,"x":2}}`, `{"items":[{"id":"a"},null]}`,
		"{\"a\" : [ null , {\"\\u0062\":1, \"b\":2} ],\n \"a\": \"x\\\"y\"}", `[[],{},[null,[null]],"null",-1.5e3,true,false]`,
		"{\"\xff\":1,\"\\ufffd\":2}",
	} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var v any
		if json.Unmarshal(doc, &v) != nil {
			return
		}
		if got, want := Oddities(doc), odditiesByTokens(doc); !reflect.DeepEqual(got, want) {
			t.Errorf("Oddities(%q) = %+v, encoding/json's tokens give %+v", doc, got, want)
		}
	})
}

// odditiesByTokens is Oddities as encoding/json's tokens find them: the
// reference the one-pass walker is checked against.
func odditiesByTokens(data []byte) []Oddity {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []Oddity
	var walk func(path []pathPart, element bool) bool
	walk = func(path []pathPart, element bool) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if tok == nil && element {
			out = append(out, Oddity{Line: LineAt(data, dec.InputOffset()), Field: fieldPath(path), Kind: NullElement})
			return true
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return false
				}
				key, _ := kt.(string)
				field := append(slices.Clip(path), pathPart{key: []byte(key)})
				if seen[key] {
					out = append(out, Oddity{Line: LineAt(data, dec.InputOffset()), Field: fieldPath(field), Kind: RepeatedKey})
				}
				seen[key] = true
				if !walk(field, false) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if !walk(append(slices.Clip(path), pathPart{array: true, index: i}), true) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		}
		return true
	}
	walk(nil, false)
	return out
}

// BenchmarkOddities walks a ground-truth line, as an import does for each.
func BenchmarkOddities(b *testing.B) {
	line := []byte(`{"model":"model-01","mode":"standard","dataset":"ds1","problem_id":"ds1-0042","cost":1234,"correct":true,"measured_at":"2026-01-01T00:00:00Z"}`)
	b.Run("walker=scanner", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Oddities(line)
		}
	})
	b.Run("walker=tokens", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			odditiesByTokens(line)
		}
	})
}

// TestFieldPath: a path of up to maxPathParts steps is written whole; a
// longer one keeps its first and last maxPathParts/2 with "…" between; a
// key longer than maxPathKey bytes is cut at the start of a character.
func TestFieldPath(t *testing.T) {
	keys := func(n int) []pathPart {
		parts := make([]pathPart, n)
		for i := range parts {
			parts[i] = pathPart{key: []byte(fmt.Sprint("k", i))}
		}
		return parts
	}
	four := "𝄞" // a 4-byte character
	tests := []struct {
		name  string
		parts []pathPart
		want  string
	}{
		{"empty", nil, ""},
		{"key then index", []pathPart{{key: []byte("a")}, {array: true, index: 2}, {key: []byte("c")}}, "a[2].c"},
		{"index first", []pathPart{{array: true, index: 0}, {key: []byte("b")}}, "[0].b"},
		{"empty first key", []pathPart{{key: []byte("")}, {key: []byte("b")}}, ".b"},
		{"empty key between", []pathPart{{key: []byte("a")}, {key: []byte("")}, {key: []byte("c")}}, "a..c"},
		{"16 steps whole", keys(16), "k0.k1.k2.k3.k4.k5.k6.k7.k8.k9.k10.k11.k12.k13.k14.k15"},
		{"17 steps", keys(17), "k0.k1.k2.k3.k4.k5.k6.k7….k9.k10.k11.k12.k13.k14.k15.k16"},
		{"18 steps", keys(18), "k0.k1.k2.k3.k4.k5.k6.k7….k10.k11.k12.k13.k14.k15.k16.k17"},
		{"key of 64 bytes whole", []pathPart{{key: []byte(strings.Repeat("k", 64))}}, strings.Repeat("k", 64)},
		{"key of 65 bytes cut", []pathPart{{key: []byte(strings.Repeat("k", 65))}}, strings.Repeat("k", 64) + "…"},
		{"a character across the cut", []pathPart{{key: []byte(strings.Repeat("k", 62) + four + "x")}}, strings.Repeat("k", 62) + "…"},
		{"a character ending at the cut", []pathPart{{key: []byte(strings.Repeat("k", 60) + four + "x")}}, strings.Repeat("k", 60) + four + "…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fieldPath(tc.parts)
			if got != tc.want {
				t.Errorf("fieldPath = %q, want %q", got, tc.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("fieldPath = %q: not UTF-8", got)
			}
		})
	}
}
