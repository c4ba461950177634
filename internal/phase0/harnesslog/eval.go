package harnesslog

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strconv"

	"github.com/klauspost/compress/zstd"

	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// zipZstd is the zip method number of Zstandard (APPNOTE 4.4.5), which
// inspect_ai writes since it moved .eval archives from deflate to zstd.
const zipZstd = 93

// evalSampleMember matches the archive member of one sample:
// samples/<id>_epoch_<n>.json (inspect_ai's _sample_filename).
var evalSampleMember = regexp.MustCompile(`^samples/(.+)_epoch_([0-9]+)\.json$`)

// evalHeader is the member holding the EvalLog without its samples, written
// when the eval ends.
const evalHeader = "header.json"

// ReadEval reads the samples of an inspect_ai .eval archive of size bytes.
// Only header.json and samples/*_epoch_*.json are read, in archive order;
// each member is decompressed (stored, deflate or zstd) within lim.
func ReadEval(name string, ra io.ReaderAt, size int64, lim Limits) ([]*Sample, error) {
	if size > lim.MaxFileBytes {
		return nil, fileErr(name, "", "%d bytes, more than the %d a log may have", size, lim.MaxFileBytes)
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // names are never used as paths
		return nil, fileErr(name, "", "not a .eval archive (zip): %v", err)
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, fileErr(name, "", "%d archive members, more than %d", len(zr.File), lim.MaxEntries)
	}
	budget := lim.MaxTotalBytes
	zr.RegisterDecompressor(zipZstd, func(r io.Reader) io.ReadCloser {
		dec, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxMemory(uint64(lim.MaxEntryBytes)+1), zstd.WithDecoderMaxWindow(64<<20))
		if err != nil {
			return errReadCloser{err}
		}
		return dec.IOReadCloser()
	})
	read := func(f *zip.File) ([]byte, error) {
		where := name + ": " + f.Name
		if f.UncompressedSize64 > uint64(lim.MaxEntryBytes) {
			return nil, fileErr(where, "", "%d bytes uncompressed, more than the %d a member may have", f.UncompressedSize64, lim.MaxEntryBytes)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fileErr(where, "", "cannot open: %v", err)
		}
		defer rc.Close() //nolint:errcheck // only read
		data, err := io.ReadAll(io.LimitReader(rc, min(lim.MaxEntryBytes, budget)+1))
		if err != nil {
			return nil, fileErr(where, "", "cannot decompress: %v", err)
		}
		if int64(len(data)) > lim.MaxEntryBytes {
			return nil, fileErr(where, "", "decompresses to more than the %d bytes a member may have (its header says %d)", lim.MaxEntryBytes, f.UncompressedSize64)
		}
		if int64(len(data)) > budget {
			return nil, fileErr(name, "", "decompresses to more than the %d bytes an archive may have", lim.MaxTotalBytes)
		}
		budget -= int64(len(data))
		return jsonloc.BlankBOM(data), nil // a member is a JSON document of its own
	}
	seen := map[string]bool{}
	var header *zip.File
	var members []*zip.File
	for _, f := range zr.File {
		if seen[f.Name] {
			return nil, fileErr(name+": "+f.Name, "", "appears twice in the archive")
		}
		seen[f.Name] = true
		switch {
		case f.Name == evalHeader:
			header = f
		case evalSampleMember.MatchString(f.Name):
			members = append(members, f)
		}
	}
	if header == nil {
		return nil, fileErr(name, "", "no %s: not an inspect_ai .eval log, or one whose eval has not ended (inspect_ai writes it last)", evalHeader)
	}
	if len(members) > lim.MaxSamples {
		return nil, fileErr(name, "", "%d samples, more than %d", len(members), lim.MaxSamples)
	}
	data, err := read(header)
	if err != nil {
		return nil, err
	}
	h, err := parseInspectHeader(data, name+": "+evalHeader)
	if err != nil {
		return nil, err
	}
	out := make([]*Sample, 0, len(members))
	for i, f := range members {
		data, err := read(f)
		if err != nil {
			return nil, err
		}
		s, err := parseInspectSample(data, name, f.Name, i, h)
		if err != nil {
			return nil, err
		}
		if epoch := evalSampleMember.FindStringSubmatch(f.Name)[2]; epoch != strconv.Itoa(s.Epoch) {
			return nil, fileErr(name+": "+f.Name, "epoch", "is %d but the member name says %s", s.Epoch, epoch)
		}
		out = append(out, s)
	}
	return out, nil
}

// errReadCloser fails every read with err.
type errReadCloser struct{ err error }

func (e errReadCloser) Read([]byte) (int, error) { return 0, e.err }
func (e errReadCloser) Close() error             { return nil }

// ReadInspectJSON reads the samples of an inspect_ai .json log (one EvalLog
// object with its samples), at most lim.MaxFileBytes.
func ReadInspectJSON(name string, r io.Reader, lim Limits) ([]*Sample, error) {
	data, err := readBounded(name, r, lim.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	data = jsonloc.BlankBOM(data)
	h, err := parseInspectHeader(data, name)
	if err != nil {
		return nil, err
	}
	var log struct {
		Samples []json.RawMessage `json:"samples"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, fileErr(name, "samples", "%v", jsonReason(err))
	}
	if len(log.Samples) > lim.MaxSamples {
		return nil, fileErr(name, "samples", "%d samples, more than %d", len(log.Samples), lim.MaxSamples)
	}
	out := make([]*Sample, 0, len(log.Samples))
	for i, raw := range log.Samples {
		s, err := parseInspectSample(raw, name, "", i, h)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// readBounded reads all of r, refusing more than maxBytes.
func readBounded(name string, r io.Reader, maxBytes int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, fileErr(name, "", "cannot read: %v", err)
	}
	if int64(len(data)) > maxBytes {
		return nil, fileErr(name, "", "more than the %d bytes a log may have", maxBytes)
	}
	return data, nil
}
