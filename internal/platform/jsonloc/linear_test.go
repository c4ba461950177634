package jsonloc

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// poolDocument is a score input with n items, one per line.
func poolDocument(n int) []byte {
	var b bytes.Buffer
	b.WriteString("{\"items\": [\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": "p%d", "cost": %d, "correct": true}`, i, 100+i)
	}
	b.WriteString("\n],\n\"alpha\": 0.5,\n\"plan\": []}\n")
	return b.Bytes()
}

// nested is n opening brackets, or n nested arrays when closed.
func nested(n int, closed bool) []byte {
	s := strings.Repeat("[", n)
	if closed {
		s += strings.Repeat("]", n)
	}
	return []byte(s)
}

// allocated returns the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestBuildIsLinear bounds what indexing allocates per input byte, on the
// inputs that made it quadratic: 160 KB of nested "[" (9.6 GB before) and
// a pool of many items. Doubling the input must not much more than double
// the allocation.
func TestBuildIsLinear(t *testing.T) {
	tests := []struct {
		name string
		doc  func(scale int) []byte
		// perByte bounds the bytes allocated per input byte.
		perByte uint64
	}{
		{"nested open", func(s int) []byte { return nested(80_000*s, false) }, 64},
		{"nested closed", func(s int) []byte { return nested(80_000*s, true) }, 64},
		{"items", func(s int) []byte { return poolDocument(20_000 * s) }, 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			small, large := tt.doc(1), tt.doc(2)
			a1 := allocated(func() { BuildOffsets(small) })
			a2 := allocated(func() { BuildOffsets(large) })
			t.Logf("%d bytes: %d allocated; %d bytes: %d allocated", len(small), a1, len(large), a2)
			if a2 > tt.perByte*uint64(len(large)) {
				t.Errorf("indexing %d bytes allocated %d bytes, over %d per byte", len(large), a2, tt.perByte)
			}
			if a2 > 3*a1 {
				t.Errorf("doubling the input multiplied the allocation by %.1f: not linear", float64(a2)/float64(a1))
			}
		})
	}
}

func TestDeepValuesGetTheirAncestorsLine(t *testing.T) {
	doc := "{\"a\":\n" + strings.Repeat("[\n", 100) + "1" + strings.Repeat("]", 100) + "}"
	ix := Build([]byte(doc))
	deep := "a" + strings.Repeat("[0]", MaxDepth-1)
	if got := ix.Line(deep); got != MaxDepth+1 {
		t.Errorf("Line at depth %d = %d, want %d", MaxDepth, got, MaxDepth+1)
	}
	if got := ix.Line(deep + "[0][0]"); got != MaxDepth+1 {
		t.Errorf("Line below MaxDepth = %d, want the deepest indexed ancestor's %d", got, MaxDepth+1)
	}
	if len(ix) != MaxDepth+1 {
		t.Errorf("%d values indexed, want %d (the root and MaxDepth levels)", len(ix), MaxDepth+1)
	}
}

func TestShape(t *testing.T) {
	for path, want := range map[string]string{
		"":                "",
		"items[3].cost":   "items[].cost",
		"a[10][2]":        "a[][]",
		"plan[]":          "plan[]",
		"odd[x].y":        "odd[x].y",
		"items[12":        "items[12",
		"random.method":   "random.method",
		"m[0].k[44].z[5]": "m[].k[].z[]",
	} {
		if got := Shape(path, "[]"); got != want {
			t.Errorf("Shape(%q) = %q, want %q", path, got, want)
		}
	}
}

// BenchmarkBuildOffsets indexes the inputs that were quadratic before:
//
//	go test -run '^$' -bench BuildOffsets -benchmem ./internal/platform/jsonloc/
func BenchmarkBuildOffsets(b *testing.B) {
	for _, bc := range []struct {
		name string
		doc  []byte
	}{
		{"nested=20KB", nested(20_000, false)},
		{"nested=160KB", nested(160_000, false)},
		{"items=1000", poolDocument(1000)},
		{"items=20000", poolDocument(20_000)},
		{"items=100001", poolDocument(100_001)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.doc)))
			for b.Loop() {
				BuildOffsets(bc.doc)
			}
		})
	}
}

// TestOdditiesIsLinear bounds what finding oddities allocates per input
// byte on documents full of them: deep lists of nulls, whose every path is
// as long as the document is deep, and an object of one long key repeated.
// Doubling the input must not much more than double the allocation (it
// grew with the square of the input before MaxOddities).
func TestOdditiesIsLinear(t *testing.T) {
	deepNulls := func(s int) []byte {
		n := 2000 * s
		return []byte(strings.Repeat("[", n) + strings.Repeat("null,", n) + "null" + strings.Repeat("]", n))
	}
	longKey := func(s int) []byte {
		key := `"` + strings.Repeat("k", 10_000*s) + `"`
		var b strings.Builder
		b.WriteString(`{"o":{`)
		for i := range 1000 * s {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(key + ":1")
		}
		b.WriteString("}}")
		return []byte(b.String())
	}
	for name, doc := range map[string]func(int) []byte{"deep nulls": deepNulls, "long key repeated": longKey} {
		t.Run(name, func(t *testing.T) {
			small, large := doc(1), doc(2)
			a1 := allocated(func() { Oddities(small) })
			a2 := allocated(func() { Oddities(large) })
			got := Oddities(large)
			if len(got) != MaxOddities {
				t.Errorf("%d oddities, want the first %d", len(got), MaxOddities)
			}
			// Each path is bounded however deep the document and long its
			// keys (fieldPath): at most maxPathParts steps of a cut key or
			// an index, and "…".
			for _, o := range got {
				if len(o.Field) > maxPathParts*(maxPathKey+len("…")+1)+len("…") {
					t.Fatalf("a path of %d bytes: %.80s…", len(o.Field), o.Field)
				}
			}
			if a2 > 5*a1/2 || a2 > 64*uint64(len(large)) {
				t.Errorf("%d bytes in: %d allocated; %d bytes in: %d allocated", len(small), a1, len(large), a2)
			}
		})
	}
}
