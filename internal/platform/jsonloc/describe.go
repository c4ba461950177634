package jsonloc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
)

// DescribeDecodeError locates an error of encoding/json decoding data,
// indexed by offsets (BuildOffsets): its 1-based line, the path of the
// offending value when known ("" otherwise) and what is wrong with it.
func DescribeDecodeError(data []byte, offsets Offsets, err error) (line int, field, reason string) {
	var (
		syntax  *json.SyntaxError
		typeErr *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &syntax):
		return LineAt(data, syntax.Offset), "", "invalid JSON: " + syntax.Error()
	case errors.As(err, &typeErr):
		return LineAt(data, typeErr.Offset), offsets.PathAt(typeErr.Field, typeErr.Offset), DescribeTypeError(typeErr)
	case errors.Is(err, io.EOF):
		return 1, "", "empty document"
	}
	return LineAt(data, int64(len(data))), "", "invalid JSON: " + err.Error()
}

// DescribeTypeError says, in JSON terms, what a value should have been:
// "must be an integer, got string"; for a number an integer field cannot
// hold, whether it is a fraction or out of the field's range ("must be an
// integer from 0 to 18446744073709551615, got -1").
func DescribeTypeError(e *json.UnmarshalTypeError) string {
	want := e.Type.String()
	switch e.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n, ok := strings.CutPrefix(e.Value, "number "); ok {
			return describeNumber(e.Type, n)
		}
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

// describeNumber says why the JSON number n does not fit the integer type
// t: a fraction, or a whole number out of t's range.
func describeNumber(t reflect.Type, n string) string {
	f, _, err := big.ParseFloat(n, 10, 0, big.ToNearestEven)
	if err != nil || !f.IsInt() {
		return "must be a whole number, got " + n
	}
	lo, hi := "0", strconv.FormatUint(math.MaxUint64>>(64-t.Bits()), 10)
	if t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64 {
		lo = strconv.FormatInt(math.MinInt64>>(64-t.Bits()), 10)
		hi = strconv.FormatInt(math.MaxInt64>>(64-t.Bits()), 10)
	}
	loF, _, _ := big.ParseFloat(lo, 10, 0, big.ToNearestEven)
	hiF, _, _ := big.ParseFloat(hi, 10, 0, big.ToNearestEven)
	if f.Cmp(loF) >= 0 && f.Cmp(hiF) <= 0 {
		// In range, but written with a fraction or an exponent (1.0, 1e3),
		// which an integer field does not take.
		return "must be an integer written without a fraction or an exponent, got " + n
	}
	return fmt.Sprintf("must be an integer from %s to %s, got %s", lo, hi, n)
}
