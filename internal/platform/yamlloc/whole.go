package yamlloc

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// FractionsInIntegers reports, as "file:line: path: must be an integer, got
// !!float `1.9`", every number with a fraction or an exponent that data, a
// YAML document that decodes into a value of type t, gives an integer
// setting: the decoder would silently cut it to its integer part (a
// pool_size of 1.9 read as 1, a seed of 0.5 as 0). nil when there is none.
func FractionsInIntegers(file string, data []byte, t reflect.Type) error {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	var problems []string
	walkTyped(doc.Content[0], t, "", 0, func(n *yaml.Node, path string) {
		problems = append(problems, fmt.Sprintf("%s:%d: %s: must be an integer, got !!float `%s`", file, n.Line, path, n.Value))
	})
	if len(problems) == 0 {
		return nil
	}
	return errors.New(strings.Join(problems, "\n"))
}

var durationType = reflect.TypeOf(time.Duration(0))

// walkTyped calls bad for each float scalar under n that decodes into an
// integer of t.
func walkTyped(n *yaml.Node, t reflect.Type, path string, depth int, bad func(*yaml.Node, string)) {
	if depth > maxDepth || n == nil {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if t != durationType && n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" {
			bad(n, path)
		}
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			return
		}
		for i, v := range n.Content {
			walkTyped(v, t.Elem(), fmt.Sprintf("%s[%d]", path, i), depth+1, bad)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			walkTyped(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value), depth+1, bad)
		}
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			for j := 0; j < t.NumField(); j++ {
				f := t.Field(j)
				name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
				if name == "" {
					name = strings.ToLower(f.Name)
				}
				if name == key && f.IsExported() {
					walkTyped(n.Content[i+1], f.Type, join(path, key), depth+1, bad)
					break
				}
			}
		}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
