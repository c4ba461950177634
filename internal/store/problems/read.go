package problems

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// MaxLineBytes is the longest line Read accepts.
const MaxLineBytes = 32 << 20

// ReadFile reads the problem file at path; see Read.
func ReadFile(path string) ([]Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // only read
	return Read(f, path)
}

// Read reads a problem file, naming it name in messages. It returns the
// problems in file order, or an *Error listing what is wrong (up to
// MaxIssues issues), or the underlying error if reading fails. A file with
// no problems at all is valid and yields an empty slice.
func Read(r io.Reader, name string) ([]Problem, error) {
	br := bufio.NewReaderSize(r, 16<<10)
	e := &Error{Name: name}
	add := func(line int, field, reason string) bool {
		if len(e.Issues) == MaxIssues {
			e.Truncated = true
			return false
		}
		e.Issues = append(e.Issues, Issue{Line: line, Field: field, Reason: reason})
		return true
	}
	type key struct{ dataset, id string }
	seen := map[key]int{}
	var out []Problem
	for line := 1; ; line++ {
		text, tooLong, err := readLine(br)
		if line == 1 {
			text = jsonloc.BlankBOM(text)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if tooLong {
			if !add(line, "", fmt.Sprintf("line longer than %d bytes", MaxLineBytes)) {
				break
			}
		} else if len(bytes.TrimSpace(text)) > 0 {
			p, issues := parseLine(text)
			for _, is := range issues {
				if !add(line, is.Field, is.Reason) {
					break
				}
			}
			if len(issues) == 0 {
				k := key{p.Dataset, p.ID}
				if first, dup := seen[k]; dup {
					add(line, "id", fmt.Sprintf("%q of dataset %q already on line %d", p.ID, p.Dataset, first))
				} else {
					seen[k] = line
					out = append(out, p)
				}
			}
			if e.Truncated {
				break
			}
		}
		if err != nil { // io.EOF after the last line
			break
		}
	}
	if len(e.Issues) > 0 {
		return nil, e
	}
	if out == nil {
		out = []Problem{}
	}
	return out, nil
}

// readLine returns the next line without its '\n', or tooLong when it
// exceeds MaxLineBytes (the rest of the line is skipped). err is io.EOF
// once the input ends.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxLineBytes+1 { // +1: the '\n'
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte{'\n'}), tooLong, err
	}
}
