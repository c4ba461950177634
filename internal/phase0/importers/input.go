package importers

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// Input is one source file.
type Input struct {
	// Name names the file in messages: the path as given, or "-".
	Name string
	// R reads the file. Parquet needs random access: when R is an
	// io.ReaderAt whose size is known (an *os.File, *bytes.Reader,
	// *strings.Reader) it is read in place, otherwise into memory first.
	R io.Reader
}

// format is a source file's format.
type format int

const (
	formatJSONL format = iota
	formatCSV
	formatParquet
)

func (f format) String() string {
	return [...]string{"JSONL", "CSV", "Parquet"}[f]
}

// detect tells in's format by its extension (.jsonl/.json/.ndjson, .csv,
// .parquet), else by its content: Parquet's "PAR1" magic, a first
// non-blank byte '{' for JSONL, else CSV. It returns the reader to read the
// file from (which may have buffered the sniffed bytes).
func detect(in Input) (format, io.Reader, error) {
	switch strings.ToLower(filepath.Ext(in.Name)) {
	case ".jsonl", ".json", ".ndjson":
		return formatJSONL, in.R, nil
	case ".csv":
		return formatCSV, in.R, nil
	case ".parquet", ".pq":
		return formatParquet, in.R, nil
	}
	br := bufio.NewReaderSize(in.R, 64<<10)
	head, err := br.Peek(4)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	if string(head) == "PAR1" {
		if _, _, ok := readerAt(in.R); ok {
			return formatParquet, in.R, nil
		}
		return formatParquet, br, nil
	}
	head, _ = br.Peek(4096) // fewer at the end of the input
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte(jsonloc.BOM)), " \t\r\n")
	if len(head) == 0 || head[0] == '{' {
		return formatJSONL, br, nil // blank: no records either way
	}
	return formatCSV, br, nil
}

// readerAt returns r as an io.ReaderAt with its size, when it is one.
func readerAt(r io.Reader) (io.ReaderAt, int64, bool) {
	ra, ok := r.(io.ReaderAt)
	if !ok {
		return nil, 0, false
	}
	switch s := r.(type) {
	case interface{ Size() int64 }:
		return ra, s.Size(), true
	case *os.File:
		st, err := s.Stat()
		if err != nil || !st.Mode().IsRegular() {
			return nil, 0, false
		}
		return ra, st.Size(), true
	}
	return nil, 0, false
}

// record is one source record: its fields as JSON values, where it is,
// and where its issues go.
type record struct {
	at  loc
	f   map[string]json.RawMessage
	iss *issues
}

// present reports whether field k is there and not null.
func (r record) present(k string) bool {
	v, ok := r.f[k]
	return ok && string(v) != "null"
}

// str returns the required non-blank string field k, or "" after adding an
// issue.
func (r record) str(k string) string {
	if !r.present(k) {
		r.iss.at(r.at, k, "required")
		return ""
	}
	s, ok := r.asString(k)
	if !ok {
		return ""
	}
	if strings.TrimSpace(s) == "" {
		r.iss.at(r.at, k, "must not be empty")
		return ""
	}
	return s
}

// optStr returns the string field k, "" when absent or null.
func (r record) optStr(k string) string {
	if !r.present(k) {
		return ""
	}
	s, _ := r.asString(k)
	return s
}

func (r record) asString(k string) (string, bool) {
	var s string
	if err := json.Unmarshal(r.f[k], &s); err != nil {
		r.iss.at(r.at, k, "must be a string, got "+kindOf(r.f[k]))
		return "", false
	}
	return s, true
}

// kindOf names the kind of a JSON value as encoding/json's errors do, with
// a number's text: "number 5".
func kindOf(raw json.RawMessage) string {
	if k := jsonloc.Kind(raw); k != "number" {
		return k
	}
	return "number " + string(bytes.TrimSpace(raw))
}

// eachRecord calls fn for each record of a JSONL or CSV input (Parquet has
// its own reader), counting them in rep. Malformed lines become issues;
// read errors are returned.
func eachRecord(in Input, rep *Report, iss *issues, fn func(record)) error {
	f, r, err := detect(in)
	if err != nil {
		return err
	}
	switch f {
	case formatJSONL:
		return eachJSONL(in.Name, r, rep, iss, fn)
	case formatCSV:
		return eachCSV(in.Name, r, rep, iss, fn)
	}
	iss.add(in.Name, "", "Parquet input is not supported by the "+rep.Kind+" importer")
	return nil
}

func eachJSONL(name string, r io.Reader, rep *Report, iss *issues, fn func(record)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	first := true
	for line := 1; ; line++ {
		text, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if line == 1 {
			text = jsonloc.BlankBOM(text)
		}
		if t := bytes.TrimSpace(text); len(t) > 0 {
			rep.Records++
			at := loc{file: name, line: line}
			rec := record{at: at, iss: iss}
			wasFirst := first
			first = false
			if t[0] == '[' && wasFirst && !json.Valid(t) {
				iss.at(at, "", "looks like a JSON array, not JSON Lines (one object per line); convert it first, e.g. jq -c '.[]'")
				return nil
			}
			if t[0] != '{' {
				var v json.RawMessage
				if json.Unmarshal(t, &v) == nil {
					iss.at(at, "", "must be a JSON object, got "+kindOf(t))
				} else {
					iss.at(at, "", "invalid JSON")
				}
			} else if err := json.Unmarshal(t, &rec.f); err != nil {
				iss.at(at, "", "invalid JSON: "+strings.TrimPrefix(err.Error(), "json: "))
			} else {
				fn(rec)
			}
		}
		if err != nil { // io.EOF after the last line
			return nil
		}
	}
}

func eachCSV(name string, r io.Reader, rep *Report, iss *issues, fn func(record)) error {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return csvIssue(name, err, iss)
	}
	cols := map[string]int{}
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, jsonloc.BOM)
		}
		h = strings.TrimSpace(h)
		if _, dup := cols[h]; dup {
			iss.add(name+":1", h, "repeated column")
			return nil
		}
		cols[h] = i
	}
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return csvIssue(name, err, iss)
		}
		line, _ := cr.FieldPos(0)
		rep.Records++
		rec := record{at: loc{file: name, line: line}, iss: iss, f: make(map[string]json.RawMessage, len(cols))}
		for h, i := range cols {
			b, _ := json.Marshal(row[i])
			rec.f[h] = b
		}
		fn(rec)
	}
}

// csvIssue turns a CSV syntax error into an issue (reading stops: a CSV
// file cannot be resynchronized), and returns other errors.
func csvIssue(name string, err error, iss *issues) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		iss.add(fmt.Sprintf("%s:%d", name, pe.Line), "", "invalid CSV: "+pe.Err.Error())
		return nil
	}
	return fmt.Errorf("%s: %w", name, err)
}
