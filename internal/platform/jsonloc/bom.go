package jsonloc

import "bytes"

// BOM is the UTF-8 byte-order mark that some tools write at the start of a
// text file (Excel, PowerShell, Python's "utf-8-sig" codec). RFC 8259 §8.1
// lets a JSON parser ignore it, and every JSON and JSONL file this module
// reads does, at the start of the file only.
const BOM = "\ufeff"

// BlankBOM returns start, the start of a file (the whole document, or its
// first line), with a leading BOM replaced by three spaces, so that every
// byte offset, line and column stays where the file has it. start itself is
// never modified: a start with a BOM is copied.
func BlankBOM(start []byte) []byte {
	if !bytes.HasPrefix(start, []byte(BOM)) {
		return start
	}
	out := bytes.Clone(start)
	copy(out, "   ")
	return out
}
