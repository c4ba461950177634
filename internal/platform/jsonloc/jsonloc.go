package jsonloc

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Index maps each value's path to the 1-based line its value starts on. The
// root value's path is "".
type Index map[string]int

// Offsets maps each value's path to the byte offset just past its first
// token.
type Offsets map[string]int64

// Build indexes a JSON document. A document that is not valid JSON is
// indexed up to the error; decoding it reports the error itself.
func Build(data []byte) Index {
	ix, _ := BuildOffsets(data)
	return ix
}

// BuildOffsets is Build that also returns each value's offset.
func BuildOffsets(data []byte) (Index, Offsets) {
	ix, offs := Index{}, Offsets{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func(path string) bool
	walk = func(path string) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		offs[path] = dec.InputOffset()
		ix[path] = LineAt(data, offs[path]-1)
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return false
				}
				k, _ := key.(string)
				child := k
				if path != "" {
					child = path + "." + k
				}
				if !walk(child) {
					return false
				}
			}
			_, err = dec.Token()
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if !walk(path + "[" + strconv.Itoa(i) + "]") {
					return false
				}
			}
			_, err = dec.Token()
		}
		return err == nil
	}
	walk("")
	return ix, offs
}

// PathAt returns the path of the value of the given shape (array indexes
// written as "[]", as in encoding/json's UnmarshalTypeError.Field with its
// dots) that ends nearest before offset: the value a decoding error at
// offset is about. It returns shape itself when none matches.
func (o Offsets) PathAt(shape string, offset int64) string {
	best, bestOff := shape, int64(-1)
	for path, off := range o {
		if off <= offset && off > bestOff && strings.ReplaceAll(indexes.ReplaceAllString(path, ""), "..", ".") == shape {
			best, bestOff = path, off
		}
	}
	return best
}

// Line returns the line of path, or of its nearest indexed ancestor, or 0.
func (ix Index) Line(path string) int {
	for {
		if line, ok := ix[path]; ok {
			return line
		}
		cut := max(strings.LastIndexByte(path, '.'), strings.LastIndexByte(path, '['))
		if cut <= 0 {
			return ix[""]
		}
		path = path[:cut]
	}
}

// LineAt returns the 1-based line of byte offset in data.
func LineAt(data []byte, offset int64) int {
	offset = min(max(offset, 0), int64(len(data)))
	return bytes.Count(data[:offset], []byte{'\n'}) + 1
}

var indexes = regexp.MustCompile(`\[\d+\]`)

// UnknownKeys returns, in document order, the paths whose key the format
// does not allow. allowed lists the allowed paths with array indexes written
// as "[]", e.g. "items[].cost"; a path is allowed when it or one of its
// ancestors is listed as "free" (any content below it).
func (ix Index) UnknownKeys(allowed, free []string) []string {
	var unknown []string
	for path := range ix {
		if path == "" || strings.HasSuffix(path, "]") {
			continue // the root and array elements are not keys
		}
		shape := indexes.ReplaceAllString(path, "[]")
		if slices.Contains(allowed, shape) || underFree(shape, free) {
			continue
		}
		unknown = append(unknown, path)
	}
	slices.SortFunc(unknown, func(a, b string) int {
		if ix[a] != ix[b] {
			return ix[a] - ix[b]
		}
		return strings.Compare(a, b)
	})
	return unknown
}

func underFree(shape string, free []string) bool {
	for _, f := range free {
		if strings.HasPrefix(shape, f+".") || strings.HasPrefix(shape, f+"[") {
			return true
		}
	}
	return false
}
