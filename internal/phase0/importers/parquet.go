package importers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// eachParquet calls fn for each row of a Parquet file with a record of the
// wanted top-level columns, read by name from the file's own schema (never
// through a Go struct, whose layout could differ from the file's and read
// as zero values). A non-repeated leaf column gives its value (a string
// for BYTE_ARRAY, a number or bool otherwise; null leaves the field out);
// a group or repeated column gives a JSON array of its non-null leaf
// values. A missing required column is one issue for the file.
func eachParquet(in Input, r io.Reader, required, optional []string, rep *Report, iss *issues, fn func(record)) error {
	ra, size, ok := readerAt(r)
	if !ok {
		data, err := io.ReadAll(r)
		if err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		ra, size = bytes.NewReader(data), int64(len(data))
	}
	f, err := parquet.OpenFile(ra, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		iss.add(in.Name, "", "not a readable Parquet file: "+err.Error())
		return nil
	}
	type column struct {
		name   string
		leaves []int
		single bool // one non-repeated leaf: a scalar per row
	}
	var cols []column
	var missing []string
	for i, name := range append(append([]string{}, required...), optional...) {
		c := f.Root().Column(name)
		if c == nil {
			if i < len(required) {
				missing = append(missing, strconv.Quote(name))
			}
			continue
		}
		col := column{name: name}
		collectLeaves(c, &col.leaves)
		col.single = c.Leaf() && c.MaxRepetitionLevel() == 0
		cols = append(cols, col)
	}
	if len(missing) > 0 {
		var have []string
		for _, c := range f.Root().Columns() {
			have = append(have, strconv.Quote(c.Name()))
		}
		iss.add(in.Name, "", fmt.Sprintf("missing column %s (the file has %s)", strings.Join(missing, ", "), strings.Join(have, ", ")))
		return nil
	}
	row := 0
	for g, rg := range f.RowGroups() {
		n := int(rg.NumRows())
		fields := make([]map[string]json.RawMessage, n)
		for i := range fields {
			fields[i] = make(map[string]json.RawMessage, len(cols))
		}
		chunks := rg.ColumnChunks()
		for _, col := range cols {
			perRow := make([][]json.RawMessage, n)
			for _, leaf := range col.leaves {
				if err := readLeaf(chunks[leaf], perRow); err != nil {
					iss.add(in.Name, col.name, fmt.Sprintf("row group %d: %v", g, err))
					return nil
				}
			}
			for i, vals := range perRow {
				switch {
				case col.single && len(vals) == 1:
					fields[i][col.name] = vals[0]
				case col.single: // null
				default:
					if vals == nil {
						vals = []json.RawMessage{}
					}
					fields[i][col.name], _ = json.Marshal(vals)
				}
			}
		}
		for i := range n {
			row++
			rep.Records++
			fn(record{at: loc{file: in.Name, line: row, row: true}, f: fields[i], iss: iss})
		}
	}
	return nil
}

func collectLeaves(c *parquet.Column, leaves *[]int) {
	if c.Leaf() {
		*leaves = append(*leaves, c.Index())
		return
	}
	for _, child := range c.Columns() {
		collectLeaves(child, leaves)
	}
}

// readLeaf appends the non-null values of a leaf column chunk to the rows
// they belong to (a value with repetition level 0 starts the next row).
func readLeaf(chunk parquet.ColumnChunk, rows [][]json.RawMessage) error {
	pages := chunk.Pages()
	defer func() { _ = pages.Close() }() // only read; ReadPage reported its errors
	row := -1
	buf := make([]parquet.Value, 256)
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		values := p.Values()
		for {
			n, err := values.ReadValues(buf)
			for _, v := range buf[:n] {
				if v.RepetitionLevel() == 0 {
					row++
					if row >= len(rows) {
						parquet.Release(p)
						return fmt.Errorf("more rows than the row group's %d", len(rows))
					}
				}
				if row < 0 {
					parquet.Release(p)
					return fmt.Errorf("a repeated value before the first row")
				}
				if !v.IsNull() {
					rows[row] = append(rows[row], valueJSON(v))
				}
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				parquet.Release(p)
				return err
			}
		}
		parquet.Release(p)
	}
	if row != len(rows)-1 {
		return fmt.Errorf("%d rows, but the row group has %d", row+1, len(rows))
	}
	return nil
}

// valueJSON renders a non-null Parquet value as JSON, copying its bytes.
func valueJSON(v parquet.Value) json.RawMessage {
	var b []byte
	switch v.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		b, _ = json.Marshal(string(v.ByteArray()))
	case parquet.Boolean:
		b = strconv.AppendBool(nil, v.Boolean())
	case parquet.Int32:
		b = strconv.AppendInt(nil, int64(v.Int32()), 10)
	case parquet.Int64:
		b = strconv.AppendInt(nil, v.Int64(), 10)
	case parquet.Float, parquet.Double:
		x := v.Double()
		if v.Kind() == parquet.Float {
			x = float64(v.Float())
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			b, _ = json.Marshal(strconv.FormatFloat(x, 'g', -1, 64))
		} else {
			b = strconv.AppendFloat(nil, x, 'g', -1, 64)
		}
	default:
		b, _ = json.Marshal(v.String())
	}
	return b
}
