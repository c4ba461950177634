package jsonloc

import (
	"reflect"
	"testing"
)

func TestOddities(t *testing.T) {
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Oddities([]byte(tc.doc)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Oddities(%s) = %+v, want %+v", tc.doc, got, tc.want)
			}
		})
	}
}
