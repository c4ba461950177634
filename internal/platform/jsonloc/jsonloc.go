package jsonloc

import (
	"bytes"
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

// MaxDepth is the deepest nesting Build indexes: values nested deeper (the
// root is at depth 0) are not indexed, and Line gives them the line of their
// deepest indexed ancestor. A format's paths are a few levels deep, and
// encoding/json refuses to decode documents nested beyond 10,000 levels
// anyway; without the cap the paths of a deeply nested document ("[0][0]…")
// would take memory quadratic in its size.
const MaxDepth = 64

// Build indexes a JSON document. A document that is not valid JSON is
// indexed up to the error; decoding it reports the error itself.
func Build(data []byte) Index {
	ix, _ := BuildOffsets(data)
	return ix
}

// frame is one open array or object while indexing.
type frame struct {
	path  string // the container's path
	array bool
	next  int // the index of the next element (objects: members seen)
}

// BuildOffsets is Build that also returns each value's offset. It takes time
// and memory linear in the size of data: one pass over the bytes (a small
// scanner rather than encoding/json's tokenizer, which allocates for every
// token), lines counted incrementally, at most MaxDepth open containers
// remembered, and no path longer than MaxDepth levels.
func BuildOffsets(data []byte) (Index, Offsets) {
	ix, offs := Index{}, Offsets{}
	sc := scanner{data: data}
	lines := lineCounter{data: data, line: 1}
	var (
		stack []frame
		// deep counts the containers open below MaxDepth, whose content
		// is skipped.
		deep int
	)
	// value takes the first token of a value, just read, indexes the
	// value under path unless skip, and opens it if it is a container. It
	// reports false when the token starts no value.
	value := func(kind token, path string, skip bool) bool {
		switch kind {
		case tokString, tokLiteral:
		case tokOpenArray, tokOpenObject:
			if skip {
				deep++
			} else {
				stack = append(stack, frame{path: path, array: kind == tokOpenArray})
			}
		default:
			return false
		}
		if !skip {
			offs[path] = int64(sc.pos)
			ix[path] = lines.at(int64(sc.pos) - 1)
		}
		return true
	}
	if !value(sc.token(), "", false) {
		return ix, offs
	}
	for len(stack) > 0 || deep > 0 {
		if deep > 0 {
			// Skip to the end of the outermost skipped container.
			switch sc.token() {
			case tokInvalid, tokEnd:
				return ix, offs
			case tokOpenArray, tokOpenObject:
				deep++
			case tokCloseArray, tokCloseObject:
				deep--
			}
			continue
		}
		top := &stack[len(stack)-1]
		// The container ends, or its next element follows (after a comma
		// unless it is the first).
		kind := sc.token()
		if kind == tokCloseArray && top.array || kind == tokCloseObject && !top.array {
			stack = stack[:len(stack)-1]
			continue
		}
		if top.next > 0 {
			if kind != tokComma {
				return ix, offs
			}
			kind = sc.token()
		}
		skip := len(stack) > MaxDepth // the element is one level too deep
		var path string
		if top.array {
			if !skip {
				path = top.path + "[" + strconv.Itoa(top.next) + "]"
			}
		} else {
			if kind != tokString {
				return ix, offs
			}
			key := sc.text
			if sc.token() != tokColon {
				return ix, offs
			}
			if !skip {
				path = decodeString(key)
				if top.path != "" {
					path = top.path + "." + path
				}
			}
			kind = sc.token()
		}
		top.next++
		if !value(kind, path, skip) {
			return ix, offs
		}
	}
	return ix, offs
}

// lineCounter returns the lines of nondecreasing offsets in data, counting
// each byte once.
type lineCounter struct {
	data []byte
	pos  int64 // newlines before pos are counted in line
	line int
}

// at returns the 1-based line of offset.
func (c *lineCounter) at(offset int64) int {
	offset = min(max(offset, 0), int64(len(c.data)))
	if offset < c.pos {
		return LineAt(c.data, offset)
	}
	c.line += bytes.Count(c.data[c.pos:offset], []byte{'\n'})
	c.pos = offset
	return c.line
}

// PathAt returns the path of the value of the given shape (array indexes
// written as "[]", as in encoding/json's UnmarshalTypeError.Field with its
// dots) that ends nearest before offset: the value a decoding error at
// offset is about. It returns shape itself when none matches.
func (o Offsets) PathAt(shape string, offset int64) string {
	best, bestOff := shape, int64(-1)
	for path, off := range o {
		if off <= offset && off > bestOff && strings.ReplaceAll(Shape(path, ""), "..", ".") == shape {
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

// Shape returns path with every array index ("[12]") replaced by index:
// Shape("items[3].cost", "[]") is "items[].cost".
func Shape(path, index string) string {
	if strings.IndexByte(path, '[') < 0 {
		return path
	}
	var b strings.Builder
	b.Grow(len(path))
	for i := 0; i < len(path); i++ {
		if path[i] == '[' {
			j := i + 1
			for j < len(path) && path[j] >= '0' && path[j] <= '9' {
				j++
			}
			if j > i+1 && j < len(path) && path[j] == ']' {
				b.WriteString(index)
				i = j
				continue
			}
		}
		b.WriteByte(path[i])
	}
	return b.String()
}

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
		shape := Shape(path, "[]")
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
