package yamlloc

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// Index maps paths to 1-based lines: a mapping's key to its key's line, a
// sequence's element to the element's. Its paths are jsonloc's, and so is
// Line (a path's line, or its nearest indexed ancestor's).
type Index struct {
	jsonloc.Index
	// values holds each scalar's text by path, so that a message about a
	// value names its key when several keys share its line (a flow
	// mapping: "random: {method: exact, seed: -5}").
	values map[string]string
	// nulls holds the paths whose value is null ("key:", "key: ~").
	nulls map[string]bool
}

// Build indexes data, a YAML document; a document that does not parse
// gives an empty index (its decoding reports the error).
func Build(data []byte) Index {
	ix := Index{jsonloc.Index{}, map[string]string{}, map[string]bool{}}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return ix
	}
	ix.walk(doc.Content[0], "", 0)
	return ix
}

// maxDepth bounds the walk: a setting nested deeper is not located.
const maxDepth = 64

func (ix Index) walk(n *yaml.Node, path string, depth int) {
	if depth > maxDepth {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			if _, seen := ix.Index[p]; !seen {
				ix.Index[p] = k.Line
				if v.Kind == yaml.ScalarNode {
					ix.values[p] = v.Value
					ix.nulls[p] = v.ShortTag() == "!!null"
				}
			}
			ix.walk(v, p, depth+1)
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			p := path + "[" + strconv.Itoa(i) + "]"
			ix.Index[p] = v.Line
			if v.Kind == yaml.ScalarNode {
				ix.values[p] = v.Value
			}
			ix.walk(v, p, depth+1)
		}
	case yaml.AliasNode:
		// An alias repeats its anchor's lines; it is not walked again.
	}
}

// cannotUnmarshal is how the decoder words a value of the wrong kind.
var cannotUnmarshal = regexp.MustCompile("^cannot unmarshal (!!\\w+)(?: `(.*)`)? into (.+)$")

// describe rewrites the decoder's reason about a value on line in YAML's
// terms, with the value's path: "solvers: must be a list, got !!str
// `fast`" for "cannot unmarshal !!str `fast` into []orchestrator.Solver".
func (ix Index) describe(line int, reason string) string {
	m := cannotUnmarshal.FindStringSubmatch(reason)
	if m == nil {
		return reason
	}
	got := m[1]
	if m[2] != "" {
		got += " `" + m[2] + "`"
	}
	out := "must be " + kindOf(m[3], m[1]) + ", got " + got
	path := ix.holding(line, m[2])
	if path == "" {
		path = ix.deepestOn(line)
	}
	if path != "" {
		out = path + ": " + out
	}
	return out
}

// kindOf names, in YAML's terms, what a Go type the decoder names holds;
// tag is what the document gave. A type of the program's own (a struct, or
// a string type such as a vocabulary's) given a collection wants a single
// value, given a scalar a mapping.
func kindOf(goType, tag string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["):
		return "a mapping"
	case strings.HasPrefix(goType, "uint"), strings.HasPrefix(goType, "*uint"):
		return "an integer ≥ 0"
	case strings.HasPrefix(goType, "int"):
		return "an integer"
	case strings.HasPrefix(goType, "float"):
		return "a number"
	case goType == "bool":
		return "true or false"
	case goType == "string":
		return "a string"
	case tag == "!!map" || tag == "!!seq":
		return "a single value"
	}
	return "a mapping"
}

// deepestOn returns the longest key path on line — a list's element only
// when no key is on it — or "" when nothing is: the decoder names a line,
// not a column, and the value of the wrong kind is most often a key's.
func (ix Index) deepestOn(line int) string {
	best, bestElement := "", ""
	for p, l := range ix.Index {
		if l != line {
			continue
		}
		b := &best
		if strings.HasSuffix(p, "]") {
			b = &bestElement
		}
		if len(p) > len(*b) || len(p) == len(*b) && p < *b {
			*b = p
		}
	}
	if best == "" {
		return bestElement
	}
	return best
}

// holding returns the longest path on line whose scalar is value, as the
// decoder quotes it (a long value cut to its first 7 bytes and "..."), or
// "" when none is or value is empty.
func (ix Index) holding(line int, value string) string {
	if value == "" {
		return ""
	}
	prefix, cut := strings.CutSuffix(value, "...")
	best := ""
	for p, l := range ix.Index {
		v, ok := ix.values[p]
		if l != line || !ok || !(v == value || cut && len(v) > 10 && strings.HasPrefix(v, prefix)) {
			continue
		}
		if len(p) > len(best) || len(p) == len(best) && p < best {
			best = p
		}
	}
	return best
}

// Given reports whether the document gives path itself (not only an
// ancestor of it, as Line would find), and whether what it gives there is
// null ("pool_size:", "pool_size: ~").
func (ix Index) Given(path string) (given, null bool) {
	_, given = ix.Index[path]
	return given, ix.nulls[path]
}

// At returns the path of the key on line whose name is key, "" when none
// is (the decoder names a key it refuses, not its path).
func (ix Index) At(line int, key string) string {
	best := ""
	for p, l := range ix.Index {
		if l == line && (p == key || strings.HasSuffix(p, "."+key)) && (best == "" || p < best) {
			best = p
		}
	}
	return best
}

// unknownField is how the decoder words a key of no field (KnownFields).
var unknownField = regexp.MustCompile(`^line (\d+): field (.+) not found in type .+$`)

// lineMessage is the decoder's "line N: reason".
var lineMessage = regexp.MustCompile(`^line (\d+): (.+)$`)

// OnlyUnknownKeys reports whether err, from decoding with KnownFields,
// found nothing wrong but keys no setting has: everything else was decoded,
// so the settings can be checked too and their problems reported with the
// keys'.
func OnlyUnknownKeys(err error) bool {
	var te *yaml.TypeError
	if !errors.As(err, &te) || len(te.Errors) == 0 {
		return false
	}
	for _, e := range te.Errors {
		if !unknownField.MatchString(e) {
			return false
		}
	}
	return true
}

// DecodeError rewrites err, from decoding file's data (indexed by ix), as
// one "file:line: path: reason" line per problem: a key no setting has is
// "unknown key" (the decoder names the Go type it was not found in), other
// problems keep the decoder's reason. An error of another kind is returned
// as "file: err".
func (ix Index) DecodeError(file string, err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if m := lineMessage.FindStringSubmatch(msg); m != nil {
			return fmt.Errorf("%s:%s: %s", file, m[1], m[2])
		}
		return fmt.Errorf("%s: %s", file, msg)
	}
	lines := make([]string, 0, len(te.Errors))
	for _, e := range te.Errors {
		if m := unknownField.FindStringSubmatch(e); m != nil {
			line, _ := strconv.Atoi(m[1])
			path := ix.At(line, m[2])
			if path == "" {
				path = m[2]
			}
			lines = append(lines, fmt.Sprintf("%s:%d: %s: unknown key", file, line, path))
			continue
		}
		if m := lineMessage.FindStringSubmatch(e); m != nil {
			line, _ := strconv.Atoi(m[1])
			lines = append(lines, fmt.Sprintf("%s:%d: %s", file, line, ix.describe(line, m[2])))
			continue
		}
		lines = append(lines, file+": "+e)
	}
	return errors.New(strings.Join(lines, "\n"))
}
