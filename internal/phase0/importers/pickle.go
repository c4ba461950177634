package importers

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// Pickle opcodes of a pickled Python str (protocols 1–5).
const (
	opProto           = 0x80 // PROTO n
	opFrame           = 0x95 // FRAME len8
	opShortBinUnicode = 0x8c // SHORT_BINUNICODE len1 utf8
	opBinUnicode      = 'X'  // BINUNICODE len4 utf8
	opBinUnicode8     = 0x8d // BINUNICODE8 len8 utf8
	opMemoize         = 0x94 // MEMOIZE
	opBinPut          = 'q'  // BINPUT idx1
	opLongBinPut      = 'r'  // LONG_BINPUT idx4
	opStop            = '.'  // STOP
)

// unpickleString decodes a pickle of exactly one Python str, as
// pickle.dumps(s) writes it at protocols 1 to 5: optional PROTO and FRAME
// opcodes, one of SHORT_BINUNICODE, BINUNICODE or BINUNICODE8, optional
// memoization (MEMOIZE, BINPUT, LONG_BINPUT), then STOP. Anything else
// (another type, a second value, trailing bytes) is an error: LiveCodeBench
// pickles nothing but a JSON string, and nothing else is trusted.
func unpickleString(data []byte) (string, error) {
	var (
		value string
		have  bool
		pos   int
	)
	need := func(n uint64, what string) ([]byte, error) {
		if n > uint64(len(data)-pos) {
			return nil, fmt.Errorf("pickle: truncated %s at offset %d", what, pos)
		}
		b := data[pos : pos+int(n)]
		pos += int(n)
		return b, nil
	}
	str := func(n uint64, op byte) error {
		if have {
			return fmt.Errorf("pickle: a second value (opcode 0x%02x) at offset %d: only one pickled str is supported", op, pos-1)
		}
		b, err := need(n, "string")
		if err != nil {
			return err
		}
		if !utf8.Valid(b) {
			return fmt.Errorf("pickle: string at offset %d is not valid UTF-8", pos-len(b))
		}
		value, have = string(b), true
		return nil
	}
	for {
		if pos >= len(data) {
			return "", fmt.Errorf("pickle: no STOP opcode")
		}
		op := data[pos]
		pos++
		switch op {
		case opProto:
			b, err := need(1, "PROTO")
			if err != nil {
				return "", err
			}
			if pos != 2 {
				return "", fmt.Errorf("pickle: PROTO not at the start")
			}
			if protocol := int(b[0]); protocol < 2 || protocol > 5 {
				return "", fmt.Errorf("pickle: unsupported protocol %d", protocol)
			}
		case opFrame:
			if _, err := need(8, "FRAME"); err != nil { // frames only group opcodes
				return "", err
			}
		case opShortBinUnicode:
			b, err := need(1, "SHORT_BINUNICODE length")
			if err != nil {
				return "", err
			}
			if err := str(uint64(b[0]), op); err != nil {
				return "", err
			}
		case opBinUnicode:
			b, err := need(4, "BINUNICODE length")
			if err != nil {
				return "", err
			}
			if err := str(uint64(binary.LittleEndian.Uint32(b)), op); err != nil {
				return "", err
			}
		case opBinUnicode8:
			b, err := need(8, "BINUNICODE8 length")
			if err != nil {
				return "", err
			}
			if err := str(binary.LittleEndian.Uint64(b), op); err != nil {
				return "", err
			}
		case opMemoize, opBinPut, opLongBinPut:
			if !have {
				return "", fmt.Errorf("pickle: memo opcode 0x%02x before any value", op)
			}
			switch op {
			case opBinPut:
				_, err := need(1, "BINPUT")
				if err != nil {
					return "", err
				}
			case opLongBinPut:
				_, err := need(4, "LONG_BINPUT")
				if err != nil {
					return "", err
				}
			}
		case opStop:
			if !have {
				return "", fmt.Errorf("pickle: STOP with nothing pickled")
			}
			if pos != len(data) {
				return "", fmt.Errorf("pickle: %d bytes after STOP", len(data)-pos)
			}
			return value, nil
		default:
			return "", fmt.Errorf("pickle: unsupported opcode 0x%02x at offset %d: only a pickled str is supported", op, pos-1)
		}
	}
}
