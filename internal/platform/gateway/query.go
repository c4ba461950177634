package gateway

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/grpc-ecosystem/grpc-gateway/v2/utilities"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// strictQueryParser is grpc-gateway's query parser, except that a query
// parameter naming no field of the request is an error (InvalidArgument): the
// default parser ignores it, so a misspelt filter would silently list
// everything.
type strictQueryParser struct{}

// Parse checks every parameter names a field, then parses as the default.
func (strictQueryParser) Parse(msg proto.Message, values url.Values, filter *utilities.DoubleArray) error {
	for key := range values {
		path := strings.Split(key, ".")
		if filter != nil && filter.HasCommonPrefix(path) {
			continue // bound by the path or the body
		}
		if !fieldPathExists(msg.ProtoReflect().Descriptor(), path) {
			// The generated handler answers the error as InvalidArgument.
			return fmt.Errorf("unknown query parameter %q for %s", key, msg.ProtoReflect().Descriptor().FullName())
		}
	}
	return (&runtime.DefaultQueryParser{}).Parse(msg, values, filter)
}

// fieldPathExists reports whether a dotted path names a field of md, each
// step by its proto name or its JSON name.
func fieldPathExists(md protoreflect.MessageDescriptor, path []string) bool {
	for i, name := range path {
		if md == nil {
			return false
		}
		fields := md.Fields()
		fd := fields.ByName(protoreflect.Name(name))
		if fd == nil {
			fd = fields.ByJSONName(name)
		}
		if fd == nil {
			return false
		}
		if i < len(path)-1 {
			md = fd.Message()
		}
	}
	return len(path) > 0
}
