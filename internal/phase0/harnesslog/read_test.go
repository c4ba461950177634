package harnesslog

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// member is one archive member to write.
type member struct {
	name   string
	data   []byte
	method uint16
}

// header and sample are the members of a minimal .eval log.
var (
	evalHeaderJSON = []byte(`{"version":2,"status":"success","eval":{"model":"m/x","created":"2026-01-02T03:04:05+00:00","task":"t"}}`)
	evalSampleJSON = []byte(`{"id":"2024-I-1","epoch":1,"input":"q","target":"204","output":{"completion":"204"},"scores":{"match":{"value":"C"}},"model_usage":{"m/x":{"output_tokens":10}}}`)
)

// zipOf returns an archive of the members (zstd members with method 93).
func zipOf(t testing.TB, members ...member) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	zw.RegisterCompressor(zipZstd, func(w io.Writer) (io.WriteCloser, error) { return zstd.NewWriter(w) })
	for _, m := range members {
		method := m.method
		if method == 0 && m.name != "" {
			method = zip.Deflate
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func small() Limits {
	return Limits{MaxFileBytes: 1 << 20, MaxEntries: 10, MaxEntryBytes: 64 << 10, MaxTotalBytes: 256 << 10, MaxSamples: 5}
}

// TestReadEvalBounds: an archive is read within its limits whatever its
// headers say; each refusal names the file (and the member).
func TestReadEvalBounds(t *testing.T) {
	zeros := make([]byte, 10<<20) // deflates to ~10 KiB: a small bomb
	big := bytes.Repeat([]byte(" "), 60<<10)
	padded := append(append([]byte{}, evalSampleJSON[:len(evalSampleJSON)-1]...), append(append([]byte(`,"pad":"`), big...), '"', '}')...)
	tests := []struct {
		name    string
		members []member
		want    string // "" reads one sample
	}{
		{"deflate", []member{{name: "header.json", data: evalHeaderJSON}, {name: "samples/2024-I-1_epoch_1.json", data: evalSampleJSON}}, ""},
		{"zstd, as inspect_ai writes", []member{{name: "header.json", data: evalHeaderJSON, method: zipZstd}, {name: "samples/2024-I-1_epoch_1.json", data: evalSampleJSON, method: zipZstd}}, ""},
		{"stored", []member{{name: "header.json", data: evalHeaderJSON, method: zip.Store}, {name: "samples/2024-I-1_epoch_1.json", data: evalSampleJSON, method: zip.Store}}, ""},
		{"other members ignored", []member{{name: "../../etc/passwd", data: []byte("x")}, {name: "header.json", data: evalHeaderJSON}, {name: "summaries.json", data: zeros[:100]}, {name: "samples/2024-I-1_epoch_1.json", data: evalSampleJSON}}, ""},
		{"deflate bomb", []member{{name: "header.json", data: evalHeaderJSON}, {name: "samples/1_epoch_1.json", data: zeros}}, "samples/1_epoch_1.json: 10485760 bytes uncompressed, more than the 65536"},
		{"zstd bomb", []member{{name: "header.json", data: evalHeaderJSON}, {name: "samples/1_epoch_1.json", data: zeros, method: zipZstd}}, "samples/1_epoch_1.json: 10485760 bytes uncompressed"},
		{"archive total", []member{{name: "header.json", data: evalHeaderJSON}, {name: "samples/a_epoch_1.json", data: padded}, {name: "samples/b_epoch_1.json", data: padded}, {name: "samples/c_epoch_1.json", data: padded}, {name: "samples/d_epoch_1.json", data: padded}, {name: "samples/e_epoch_1.json", data: padded}}, "decompresses to more than the 262144 bytes an archive may have"},
		{"too many members", func() []member {
			ms := []member{{name: "header.json", data: evalHeaderJSON}}
			for i := range 10 {
				ms = append(ms, member{name: "x" + string(rune('a'+i)), data: []byte("x")})
			}
			return ms
		}(), "11 archive members, more than 10"},
		{"too many samples", func() []member {
			ms := []member{{name: "header.json", data: evalHeaderJSON}}
			for i := range 6 {
				ms = append(ms, member{name: "samples/" + string(rune('a'+i)) + "_epoch_1.json", data: evalSampleJSON})
			}
			return ms
		}(), "6 samples, more than 5"},
		{"duplicate member", []member{{name: "header.json", data: evalHeaderJSON}, {name: "samples/1_epoch_1.json", data: evalSampleJSON}, {name: "samples/1_epoch_1.json", data: evalSampleJSON}}, "samples/1_epoch_1.json: appears twice in the archive"},
		{"no header", []member{{name: "_journal/start.json", data: evalHeaderJSON}, {name: "samples/1_epoch_1.json", data: evalSampleJSON}}, "no header.json: not an inspect_ai .eval log, or one whose eval has not ended"},
		{"header without model", []member{{name: "header.json", data: []byte(`{"version":2,"eval":{}}`)}}, "header.json: eval.model: missing"},
		{"header not JSON", []member{{name: "header.json", data: []byte(`{"version":`)}}, "header.json: not an inspect_ai log header"},
		{"epoch differs from the name", []member{{name: "header.json", data: evalHeaderJSON}, {name: "samples/2024-I-1_epoch_2.json", data: evalSampleJSON}}, "samples/2024-I-1_epoch_2.json: epoch: is 1 but the member name says 2"},
		{"sample id of a wrong type", []member{{name: "header.json", data: evalHeaderJSON}, {name: "samples/x_epoch_1.json", data: []byte(`{"id":[1],"epoch":1}`)}}, "samples/x_epoch_1.json: id: must be a string or an integer"},
		{"sample field of a wrong type", []member{{name: "header.json", data: evalHeaderJSON}, {name: "samples/x_epoch_1.json", data: []byte(`{"id":1,"epoch":1,"model_usage":{"m/x":{"output_tokens":"many"}}}`)}}, "samples/x_epoch_1.json: not an inspect_ai sample: cannot unmarshal string into Go struct field"},
		{"sample without epoch", []member{{name: "header.json", data: evalHeaderJSON}, {name: "samples/x_epoch_1.json", data: []byte(`{"id":1}`)}}, "epoch: must be ≥ 1, got 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := zipOf(t, tc.members...)
			samples, err := ReadEval("log.eval", bytes.NewReader(data), int64(len(data)), small())
			if tc.want == "" {
				if err != nil || len(samples) != 1 || *samples[0].Output != 10 || samples[0].Ref != "id=2024-I-1,epoch=1" {
					t.Fatalf("%v, %v; want the one sample", samples, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "log.eval") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v; want it to name log.eval and say %q", err, tc.want)
			}
		})
	}
}

// TestReadEvalLyingHeader: a member whose header understates its size
// is stopped by the bytes actually decompressed.
func TestReadEvalLyingHeader(t *testing.T) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, m := range []struct {
		name string
		data []byte
	}{{"header.json", evalHeaderJSON}, {"samples/1_epoch_1.json", make([]byte, 1<<20)}} {
		var raw bytes.Buffer
		fw, err := zstd.NewWriter(&raw)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(m.data) //nolint:errcheck // a bytes.Buffer
		fw.Close()       //nolint:errcheck // a bytes.Buffer
		w, err := zw.CreateRaw(&zip.FileHeader{Name: m.name, Method: zipZstd, CompressedSize64: uint64(raw.Len()), UncompressedSize64: uint64(min(len(m.data), 200))})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(raw.Bytes()) //nolint:errcheck // a bytes.Buffer
	}
	zw.Close() //nolint:errcheck // a bytes.Buffer
	_, err := ReadEval("lie.eval", bytes.NewReader(b.Bytes()), int64(b.Len()), small())
	if err == nil || !strings.Contains(err.Error(), "lie.eval: samples/1_epoch_1.json") {
		t.Fatalf("err %v; want the lying member refused by name", err)
	}
}

// TestReadFileFormats: the format comes from the content and the name, or
// from --from; what cannot be told is refused.
func TestReadFileFormats(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	eval := zipOf(t, member{name: "header.json", data: evalHeaderJSON}, member{name: "samples/2024-I-1_epoch_1.json", data: evalSampleJSON})
	tests := []struct {
		path    string
		harness Harness
		want    string // "" reads
	}{
		{write("renamed.zip", eval), "", ""},
		{write("bom.eval", zipOf(t, member{name: "header.json", data: append([]byte("\ufeff"), evalHeaderJSON...)},
			member{name: "samples/2024-I-1_epoch_1.json", data: append([]byte("\ufeff"), evalSampleJSON...)})), "", ""}, // members that start with a BOM
		{write("renamed.log", eval), Inspect, ""},
		{write("not-zip.eval", []byte(`{}`)), "", "a .eval log must be a zip archive"},
		{write("unknown.txt", []byte(`{}`)), "", "cannot tell the format from the name: use --from"},
		{write("samples_x.jsonl", []byte("{\"doc_id\":0}\n\n")), "", ""},
		{write("samples_bom.jsonl", []byte("\ufeff{\"doc_id\":0}\n")), "", ""},
		{write("samples_bom2.jsonl", []byte("{\"doc_id\":0}\n\ufeff{\"doc_id\":1}\n")), "", "samples_bom2.jsonl:2:"}, // a BOM counts only at the start
		{write("samples_bad.jsonl", []byte("{\"doc_id\":0}\n[1]\n")), "", "samples_bad.jsonl:2: not a JSON object"},
		{write("samples_noid.jsonl", []byte("{\"doc\":{}}\n")), "", "samples_noid.jsonl:1: doc_id: must be an integer or a string"},
		{write("samples_long.jsonl", append(bytes.Repeat([]byte("x"), 70<<10), '\n')), "", "samples_long.jsonl:1: cannot read"},
		{write("big.json", bytes.Repeat([]byte(" "), 2<<20)), "", "2097152 bytes, more than the 1048576 a log may have"},
		{write("log.json", []byte(`{"eval":{"model":"m"},"samples":{}}`)), "", "log.json: samples: cannot unmarshal object"},
		{write("bom.json", []byte("\ufeff"+`{"eval":{"model":"m"},"samples":{}}`)), "", "bom.json: samples: cannot unmarshal object"}, // past the BOM
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			_, err := ReadFile(tc.path, tc.harness, small())
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v; want %q", err, tc.want)
			}
		})
	}
}

// TestReadLMEvalBounds: a samples file read from a stream stops at its
// bounds (bytes, samples), naming the file.
func TestReadLMEvalBounds(t *testing.T) {
	line := `{"doc_id":0,"doc":{"id":"x"},"metrics":["acc"],"acc":1,"output_tokens":5}` + "\n"
	lim := small()
	tests := []struct {
		name string
		data string
		want string
	}{
		{"within", strings.Repeat(line, 5), ""},
		{"too many samples", strings.Repeat(line, 6), "f.jsonl: more than 5 samples"},
		{"too many bytes", strings.Repeat(strings.Repeat(" ", 1000)+"\n", 1100), "f.jsonl: more than the 1048576 bytes a log may have"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			samples, err := ReadLMEval("f.jsonl", strings.NewReader(tc.data), lim)
			if tc.want == "" {
				if err != nil || len(samples) != 5 || *samples[0].Output != 5 {
					t.Fatalf("%v, %v", samples, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}
