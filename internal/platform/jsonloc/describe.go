package jsonloc

import (
	"encoding/json"
	"reflect"
)

// DescribeTypeError says, in JSON terms, what a value should have been:
// "must be an integer, got string".
func DescribeTypeError(e *json.UnmarshalTypeError) string {
	want := e.Type.String()
	switch e.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		want = "an integer"
	case reflect.Float32, reflect.Float64:
		want = "a number"
	case reflect.Bool:
		want = "true or false"
	case reflect.String:
		want = "a string"
	case reflect.Slice, reflect.Array:
		want = "an array"
	case reflect.Struct, reflect.Map:
		want = "an object"
	}
	return "must be " + want + ", got " + e.Value
}
