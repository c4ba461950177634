package harnesslog

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// zipMagic starts a zip archive's first local file header.
var zipMagic = []byte("PK\x03\x04")

// ReadFile reads the log at path. harness "" detects the format: a zip
// archive is a .eval log; otherwise .jsonl (and .ndjson) is an
// lm-evaluation-harness samples file and .json an inspect_ai log. Inspect
// reads a zip archive as .eval and anything else as .json; LMEval reads
// JSONL.
func ReadFile(path string, harness Harness, lim Limits) ([]*Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close() //nolint:errcheck // only read
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fileErr(path, "", "not a regular file")
	}
	if st.Size() > lim.MaxFileBytes {
		return nil, fileErr(path, "", "%d bytes, more than the %d a log may have", st.Size(), lim.MaxFileBytes)
	}
	head := make([]byte, len(zipMagic))
	n, _ := io.ReadFull(f, head)
	isZip := bytes.Equal(head[:n], zipMagic)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	ext := strings.ToLower(filepath.Ext(path))
	switch {
	case harness == LMEval || (harness == "" && !isZip && (ext == ".jsonl" || ext == ".ndjson")):
		return ReadLMEval(path, f, lim)
	case harness == Inspect && isZip, harness == "" && isZip:
		return ReadEval(path, f, st.Size(), lim)
	case harness == Inspect, harness == "" && ext == ".json":
		return ReadInspectJSON(path, f, lim)
	case harness == "" && ext == ".eval":
		return nil, fileErr(path, "", "a .eval log must be a zip archive")
	case harness == "":
		return nil, fileErr(path, "", "cannot tell the format from the name: use --from inspect or --from lm-eval")
	}
	return nil, fmt.Errorf("unknown harness %q (want %q or %q)", harness, Inspect, LMEval)
}
