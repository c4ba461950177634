package jsonloc

// Member is one member of a JSON object: its key, decoded as encoding/json
// decodes it, and its value's raw bytes, as a json.RawMessage would hold
// them (without the white space around them).
type Member struct {
	Key   string
	Value []byte
}

// Members returns the members of data's top-level object in document
// order, repeated keys included; ok is false when data is not one JSON
// object. data must be valid JSON (it decoded without error): Members
// splits it with the package's scanner in one pass, without validating it,
// where encoding/json's Decoder.Token allocates an error for every value
// it reads inside a container. The values share data's memory.
func Members(data []byte) (members []Member, ok bool) {
	sc := scanner{data: data}
	if sc.token() != tokOpenObject {
		return nil, false
	}
	for first := true; ; first = false {
		kind := sc.token()
		if kind == tokCloseObject {
			return members, true
		}
		if !first {
			if kind != tokComma {
				return members, false
			}
			kind = sc.token()
		}
		if kind != tokString {
			return members, false
		}
		key := decodeString(sc.text)
		if sc.token() != tokColon {
			return members, false
		}
		start, end, ok := sc.value()
		if !ok {
			return members, false
		}
		members = append(members, Member{Key: key, Value: data[start:end]})
	}
}

// value reads one whole value and returns where it starts and ends; ok is
// false when no value starts there or it does not end.
func (s *scanner) value() (start, end int, ok bool) {
	depth := 0
	for {
		kind := s.token()
		if depth == 0 {
			start = s.pos - 1
			switch kind {
			case tokString:
				start = s.pos - len(s.text) - 2
			case tokLiteral:
				start = s.literalStart
			}
		}
		switch kind {
		case tokOpenObject, tokOpenArray:
			depth++
		case tokCloseObject, tokCloseArray:
			depth--
			if depth < 0 {
				return 0, 0, false
			}
		case tokEnd, tokInvalid:
			return 0, 0, false
		case tokColon, tokComma:
			if depth == 0 {
				return 0, 0, false
			}
		}
		if depth == 0 {
			return start, s.pos, true
		}
	}
}
