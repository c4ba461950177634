package importers

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

// hleItem is one synthetic HLE record (HLE itself is gated: these are
// invented, with the real field names).
type hleItem struct {
	id, question, image, answer, answerType, rawSubject, category, rationale string
}

var hleItems = []hleItem{
	{"syn-000", "Synthetic: what is 6 times 7?", "", "42", "exactMatch", "Arithmetic", "Math", "6*7=42"},
	{"syn-001", "Synthetic: which is prime?\n\nAnswer Choices:\nA. 4\nB. 9\nC. 7\nD. 8", "", "C", "multipleChoice", "Number theory", "Math", "7 is prime"},
	{"syn-002", "Synthetic: what does the figure show?", "data:image/png;base64,iVBORw0KGgo=", "a cat", "exactMatch", "Vision", "Other", "it is a cat"},
	{"syn-003", "Synthetic: name the SI unit of force.", "", "newton", "exactMatch", "Mechanics", "Physics", "F = ma"},
	{"syn-004", "Synthetic: pick the noble gas.\nA. N\nB. Ar", "", "(B)", "multipleChoice", "Chemistry", "Chemistry", "argon"},
	{"syn-005", "Synthetic: what is the complexity of binary search?", "", "O(log n)", "exactMatch", "Algorithms", "Computer Science/AI", "halving"},
	{"syn-006", "Synthetic: which option?\nA. x\nB. y", "", "A and B", "multipleChoice", "Logic", "Math", "both"},
	{"syn-007", "Synthetic: read the plot.", "https://example.invalid/plot.png", "3", "exactMatch", "Plots", "Math", "three"},
}

func hleJSONL(t *testing.T, items []hleItem) string {
	var recs []any
	for _, it := range items {
		recs = append(recs, map[string]any{"id": it.id, "question": it.question, "image": it.image, "answer": it.answer,
			"answer_type": it.answerType, "raw_subject": it.rawSubject, "category": it.category, "rationale": it.rationale,
			"author_name": "synthetic", "canary": nil})
	}
	return jsonl(t, recs...)
}

// checkHLE checks the problems imported from hleItems with no category
// filter.
func checkHLE(t *testing.T, ps []problems.Problem, rep *Report, dataset string) {
	t.Helper()
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
		if p.Dataset != dataset {
			t.Fatalf("%s: dataset %q", p.ID, p.Dataset)
		}
	}
	if want := []string{"syn-000", "syn-001", "syn-003", "syn-004", "syn-005"}; !slices.Equal(ids, want) {
		t.Fatalf("ids %v, want %v; report %+v", ids, want, rep)
	}
	if skipCount(rep, "has an image") != 2 || skipCount(rep, "multipleChoice answer is not one letter") != 1 || rep.Records != len(hleItems) {
		t.Fatalf("report %+v", rep)
	}
	m := byID(ps)
	for id, want := range map[string]grading.Spec{
		"syn-000": {Kind: grading.KindExact, Answer: "42", AnswerType: "exactMatch"},
		"syn-001": {Kind: grading.KindChoice, Answer: "C", AnswerType: "multipleChoice"},
		"syn-003": {Kind: grading.KindExact, Answer: "newton", AnswerType: "exactMatch"},
		"syn-004": {Kind: grading.KindChoice, Answer: "B", AnswerType: "multipleChoice"},
		"syn-005": {Kind: grading.KindExact, Answer: "O(log n)", AnswerType: "exactMatch"},
	} {
		got := specOf(t, m[id])
		if got.Kind != want.Kind || got.Answer != want.Answer || got.AnswerType != want.AnswerType || len(got.Choices) != 0 {
			t.Errorf("%s: spec %+v, want %+v", id, got, want)
		}
	}
	if m["syn-001"].Text != hleItems[1].question {
		t.Errorf("syn-001 text %q", m["syn-001"].Text)
	}
	roundTrip(t, ps)
}

func TestHLEJSONL(t *testing.T) {
	ps, rep, err := HLE([]Input{textInput("hle.jsonl", hleJSONL(t, hleItems))}, HLEOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkHLE(t, ps, rep, "hle")
}

func TestHLECategories(t *testing.T) {
	data := hleJSONL(t, hleItems)
	ps, rep, err := HLE([]Input{textInput("hle.jsonl", data)}, HLEOptions{Categories: []string{"math"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Dataset != "hle-math" || skipCount(rep, "category not selected") != 4 || skipCount(rep, "has an image") != 1 {
		t.Fatalf("math: %d problems, report %+v", len(ps), rep)
	}
	ps, _, err = HLE([]Input{textInput("hle.jsonl", data)}, HLEOptions{Categories: []string{"computer-science-ai", "Physics"}})
	if err != nil || len(ps) != 2 || ps[0].Dataset != "hle" || ps[0].ID != "syn-003" || ps[1].ID != "syn-005" {
		t.Fatalf("two categories: %+v, %v", ps, err)
	}
	ps, _, err = HLE([]Input{textInput("hle.jsonl", data)}, HLEOptions{Categories: []string{"Computer Science/AI"}, Dataset: "hle-cs"})
	if err != nil || len(ps) != 1 || ps[0].Dataset != "hle-cs" {
		t.Fatalf("--dataset wins: %+v, %v", ps, err)
	}
	if got := Slug(" Computer Science/AI "); got != "computer-science-ai" {
		t.Errorf("Slug = %q", got)
	}
}

func TestHLEMalformed(t *testing.T) {
	data := jsonl(t,
		map[string]any{"id": "a", "question": "Q", "answer": "1", "answer_type": "freeform", "image": ""},
		map[string]any{"id": "b", "question": "Q", "answer": "", "answer_type": "exactMatch"},
		map[string]any{"id": 3, "question": "Q", "answer": "1", "answer_type": "exactMatch"},
		map[string]any{"id": "d", "question": "Q", "answer": "1", "answer_type": "exactMatch", "image": 5},
	)
	_, _, err := HLE([]Input{textInput("hle.jsonl", data)}, HLEOptions{})
	wantIssues(t, err,
		`hle.jsonl:1: answer_type: must be exactMatch or multipleChoice, got "freeform"`,
		"hle.jsonl:2: answer: must not be empty",
		"hle.jsonl:3: id: must be a string, got number 3",
		"hle.jsonl:4: image: must be a string, got number 5",
	)
}

// Layout A: what a plain parquet-go writer makes of required strings.
type hleRowA struct {
	ID         string `parquet:"id"`
	Question   string `parquet:"question"`
	Image      string `parquet:"image"`
	Answer     string `parquet:"answer"`
	AnswerType string `parquet:"answer_type"`
	RawSubject string `parquet:"raw_subject"`
	Category   string `parquet:"category"`
	Rationale  string `parquet:"rationale"`
}

type imagePreview struct {
	Bytes []byte  `parquet:"bytes,optional"`
	Path  *string `parquet:"path,optional"`
}

// Layout B: another physical layout of the same columns, in another
// order, with optional, dictionary-, delta- and plain-encoded strings,
// compressed columns, unknown extra columns (a LIST, a legacy repeated
// string, a struct like the Hugging Face Image feature, an int64), and
// small row groups and v1 data pages.
type hleRowB struct {
	Canary       *string       `parquet:"canary,optional"`
	Category     *string       `parquet:"category,optional,dict"`
	AnswerType   string        `parquet:"answer_type,dict,snappy"`
	Tags         []string      `parquet:"tags,list"`
	Aliases      []string      `parquet:"aliases"`
	Answer       *string       `parquet:"answer,optional,plain"`
	ImagePreview *imagePreview `parquet:"image_preview,optional"`
	AuthorID     int64         `parquet:"author_id"`
	Question     string        `parquet:"question,delta,zstd"`
	Rationale    *string       `parquet:"rationale,optional,zstd"`
	Image        *string       `parquet:"image,optional,dict"`
	RawSubject   string        `parquet:"raw_subject"`
	ID           string        `parquet:"id,dict"`
}

// Layout C: image as a struct column (bytes, path), as some exports have.
type hleRowC struct {
	ID         string        `parquet:"id"`
	Question   string        `parquet:"question"`
	Image      *imagePreview `parquet:"image,optional"`
	Answer     string        `parquet:"answer"`
	AnswerType string        `parquet:"answer_type"`
	Category   string        `parquet:"category"`
}

func writeParquet[T any](t *testing.T, name string, rows []T, opts ...parquet.WriterOption) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f, opts...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func ptr(s string) *string { return &s }

func TestHLEParquetPlain(t *testing.T) {
	var rows []hleRowA
	for _, it := range hleItems {
		rows = append(rows, hleRowA{it.id, it.question, it.image, it.answer, it.answerType, it.rawSubject, it.category, it.rationale})
	}
	path := writeParquet(t, "hle.parquet", rows)
	ps, rep, err := HLE([]Input{fileInput(t, path)}, HLEOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkHLE(t, ps, rep, "hle")
	if ex := rep.Skips[0].Examples[0]; ex != "hle.parquet:row 3 (syn-002)" {
		t.Errorf("example %q", ex)
	}
}

func TestHLEParquetOtherLayout(t *testing.T) {
	var rows []hleRowB
	for i, it := range hleItems {
		r := hleRowB{
			Category: ptr(it.category), AnswerType: it.answerType, Tags: []string{"t" + it.id, "u"}, Aliases: []string{it.id},
			Answer: ptr(it.answer), AuthorID: int64(i), Question: it.question, Rationale: ptr(it.rationale),
			RawSubject: it.rawSubject, ID: it.id,
		}
		if it.image != "" {
			r.Image = ptr(it.image)
			r.ImagePreview = &imagePreview{Bytes: []byte{0x89, 'P', 'N', 'G'}, Path: ptr("img.png")}
		} else if i%2 == 0 {
			r.Image = ptr("") // text-only as "", or null
		}
		if i == 0 {
			r.Canary = ptr("SYNTHETIC CANARY")
		}
		rows = append(rows, r)
	}
	path := writeParquet(t, "hle-b.parquet", rows, parquet.MaxRowsPerRowGroup(3), parquet.DataPageVersion(1), parquet.PageBufferSize(64))
	f, _ := os.Open(path)
	pf, err := parquet.OpenFile(f, fileSize(t, f))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(pf.RowGroups()); n < 3 {
		t.Fatalf("fixture has %d row groups, want several", n)
	}
	f.Close()
	ps, rep, err := HLE([]Input{fileInput(t, path)}, HLEOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkHLE(t, ps, rep, "hle")

	// Reading layout B through layout A's struct, by position or by a
	// mismatched schema, is how zero values creep in; the importer reads by
	// column name, so every string is the real one.
	for _, p := range ps {
		if p.ID == "" || p.Text == "" || !strings.HasPrefix(p.Text, "Synthetic:") {
			t.Fatalf("zero or wrong value read: %+v", p)
		}
	}

	// Standard input cannot seek: the importer sniffs "PAR1" and reads it
	// into memory.
	data, _ := os.ReadFile(path)
	ps2, _, err := HLE([]Input{{Name: "-", R: io.MultiReader(bytes.NewReader(data))}}, HLEOptions{})
	if err != nil || len(ps2) != len(ps) {
		t.Fatalf("from a stream: %d problems, %v", len(ps2), err)
	}
}

func TestHLEParquetImageStruct(t *testing.T) {
	var rows []hleRowC
	for _, it := range hleItems {
		r := hleRowC{ID: it.id, Question: it.question, Answer: it.answer, AnswerType: it.answerType, Category: it.category}
		if it.image != "" {
			r.Image = &imagePreview{Path: ptr("x.png")}
		} else if it.id == "syn-000" {
			r.Image = &imagePreview{} // both fields null: no image
		}
		rows = append(rows, r)
	}
	ps, rep, err := HLE([]Input{fileInput(t, writeParquet(t, "hle-c.parquet", rows))}, HLEOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkHLE(t, ps, rep, "hle")
}

func TestHLEParquetMalformed(t *testing.T) {
	type noAnswer struct {
		ID         string `parquet:"id"`
		Question   string `parquet:"question"`
		AnswerType string `parquet:"answer_type"`
	}
	path := writeParquet(t, "x.parquet", []noAnswer{{"a", "Q", "exactMatch"}})
	_, _, err := HLE([]Input{fileInput(t, path)}, HLEOptions{})
	wantIssues(t, err, `x.parquet: missing column "answer" (the file has "id", "question", "answer_type")`)

	type intID struct {
		ID         int64   `parquet:"id"`
		Question   string  `parquet:"question"`
		Answer     *string `parquet:"answer,optional"`
		AnswerType string  `parquet:"answer_type"`
	}
	path = writeParquet(t, "y.parquet", []intID{{7, "Q", ptr("1"), "exactMatch"}, {8, "Q", nil, "exactMatch"}})
	_, _, err = HLE([]Input{fileInput(t, path)}, HLEOptions{})
	wantIssues(t, err, "y.parquet:row 1: id: must be a string, got number 7", "y.parquet:row 2: answer: required")

	_, _, err = HLE([]Input{textInput("z.parquet", "PAR1 not really")}, HLEOptions{})
	wantIssues(t, err, "z.parquet: not a readable Parquet file")
}

func fileSize(t *testing.T, f *os.File) int64 {
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// hle_parquetjs.parquet comes from another Parquet implementation
// (testdata/hle_parquetjs.js): legacy UTF8 converted types, optional
// and repeated (two-level legacy list) columns, a nested group, an INT64,
// GZIP pages, two rows per row group, columns in another order.
func TestHLEParquetFromAnotherWriter(t *testing.T) {
	ps, rep, err := HLE([]Input{fileInput(t, "testdata/hle_parquetjs.parquet")}, HLEOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]grading.Spec{
		"js-000": {Kind: grading.KindExact, Answer: "7", AnswerType: "exactMatch"},
		"js-001": {Kind: grading.KindChoice, Answer: "B", AnswerType: "multipleChoice"},
		"js-003": {Kind: grading.KindExact, Answer: "blue", AnswerType: "exactMatch"},
		"js-004": {Kind: grading.KindChoice, Answer: "A", AnswerType: "multipleChoice"},
	}
	if len(ps) != len(want) || rep.Records != 5 || skipCount(rep, "has an image") != 1 {
		t.Fatalf("got %d problems, report %+v", len(ps), rep)
	}
	texts := map[string]string{
		"js-000": "Synthetic: what is 3 plus 4?",
		"js-001": "Synthetic: which letter?\nA. one\nB. two",
		"js-003": "Synthetic: name the color of a clear daytime sky.",
		"js-004": "Synthetic: pick one.\nA. yes\nB. no",
	}
	for _, p := range ps {
		s := specOf(t, p)
		if w := want[p.ID]; s.Kind != w.Kind || s.Answer != w.Answer || s.AnswerType != w.AnswerType || p.Text != texts[p.ID] {
			t.Errorf("%s: %q %+v", p.ID, p.Text, s)
		}
	}
	ps, _, err = HLE([]Input{fileInput(t, "testdata/hle_parquetjs.parquet")}, HLEOptions{Categories: []string{"Math"}})
	if err != nil || len(ps) != 2 || ps[0].Dataset != "hle-math" {
		t.Fatalf("math: %+v, %v", ps, err)
	}
	roundTrip(t, ps)
}
