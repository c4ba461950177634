package importers

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/pool"

	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

// builder collects one import's problems, skips and issues.
type builder struct {
	rep  *Report
	iss  issues
	seen map[[2]string]seenEntry
	out  []problems.Problem
}

type seenEntry struct {
	at  loc
	sum [32]byte
}

func newBuilder(kind string) *builder {
	return &builder{rep: newReport(kind), seen: map[[2]string]seenEntry{}}
}

// emit adds problem p with grading spec from the record at at. A second
// record with the same dataset, id and content is skipped as a duplicate;
// one with different content is an issue.
func (b *builder) emit(at loc, p problems.Problem, spec grading.Spec) {
	if err := spec.Validate(); err != nil {
		b.iss.at(at, "", err.Error())
		return
	}
	g, err := json.Marshal(spec)
	if err != nil {
		b.iss.at(at, "", err.Error())
		return
	}
	p.Grading = g
	switch {
	case pool.IDProblem(p.ID) != "":
		b.iss.addf(at, "id", "%s, got %q", pool.IDProblem(p.ID), p.ID)
		return
	case p.Dataset == "" || len(p.Dataset) > problems.MaxDatasetBytes:
		b.iss.addf(at, "", "dataset name must be 1 to %d bytes, got %q", problems.MaxDatasetBytes, p.Dataset)
		return
	case strings.TrimSpace(p.Text) == "":
		b.iss.at(at, "", "problem text is empty")
		return
	case strings.IndexByte(p.ID+p.Text, 0) >= 0:
		b.iss.at(at, "", "text or id contains a NUL character")
		return
	}
	line, _ := json.Marshal(p)
	sum := sha256.Sum256(line)
	key := [2]string{p.Dataset, p.ID}
	if first, dup := b.seen[key]; dup {
		if first.sum == sum {
			b.rep.skip(at, "duplicate record", "same as "+first.at.String())
		} else {
			b.iss.addf(at, "", "id %q of dataset %q already on %s, with different content", p.ID, p.Dataset, first.at)
		}
		return
	}
	b.seen[key] = seenEntry{at: at, sum: sum}
	b.out = append(b.out, p)
	b.rep.count(at, p, spec)
}

// result returns the problems and the report, or an *Error listing the
// malformed records (and no problems).
func (b *builder) result() ([]problems.Problem, *Report, error) {
	if err := b.iss.err(); err != nil {
		return nil, b.rep, err
	}
	if b.out == nil {
		b.out = []problems.Problem{}
	}
	return b.out, b.rep, nil
}

// WriteJSONL writes ps as a canonical problem file, checking that every
// line reads back with problems.Read and that (dataset, id) is unique.
func WriteJSONL(w io.Writer, ps []problems.Problem) error {
	seen := map[[2]string]bool{}
	var buf bytes.Buffer
	for i, p := range ps {
		line, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("problem %d (%s): %w", i+1, p.ID, err)
		}
		if len(line) > problems.MaxLineBytes {
			return fmt.Errorf("problem %s: %d bytes, more than the %d a problem line may have", p.ID, len(line), problems.MaxLineBytes)
		}
		if _, err := problems.Read(bytes.NewReader(line), p.ID); err != nil {
			return fmt.Errorf("problem %d would not read back: %w", i+1, err)
		}
		if _, err := grading.ParseSpec(p.Grading); err != nil {
			return fmt.Errorf("problem %s: %w", p.ID, err)
		}
		key := [2]string{p.Dataset, p.ID}
		if seen[key] {
			return fmt.Errorf("problem %s of dataset %s appears twice", p.ID, p.Dataset)
		}
		seen[key] = true
		buf.Write(line)
		buf.WriteByte('\n')
		if buf.Len() >= 1<<20 {
			if _, err := w.Write(buf.Bytes()); err != nil {
				return err
			}
			buf.Reset()
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// letters are the option labels.
const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// withOptions appends options to a question as "A) …" lines.
func withOptions(question string, options []string) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(question))
	b.WriteString("\n\n")
	for i, o := range options {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteByte(letters[i])
		b.WriteString(") ")
		b.WriteString(o)
	}
	return b.String()
}

// Permutation returns the seeded shuffle of n options for the item with
// the given id: perm[k] is the source index of the option shown at
// position k. It depends only on (seed, id, n), never on file order:
//
//	key   = SHA-256("triage/shuffle/v1" 0x00 decimal(seed) 0x00 id)
//	word  = the 8-byte big-endian words of SHA-256(key ‖ uint64be(c)),
//	        c = 0, 1, 2, … (four words per block)
//	shuffle: perm = [0..n-1]; for i = n-1 down to 1: draw words until
//	        w < 2^64 − (2^64 mod (i+1)), j = w mod (i+1), swap perm[i], perm[j]
func Permutation(seed uint64, id string, n int) []int {
	key := sha256.Sum256([]byte(fmt.Sprintf("triage/shuffle/v1\x00%d\x00%s", seed, id)))
	s := wordStream{key: key, used: 4}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := n - 1; i >= 1; i-- {
		m := uint64(i + 1)
		limit := -(-m % m) // 2^64 - (2^64 mod m), as uint64 arithmetic; 0 means 2^64
		var w uint64
		for {
			w = s.next()
			if limit == 0 || w < limit {
				break
			}
		}
		j := int(w % m)
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm
}

type wordStream struct {
	key     [32]byte
	counter uint64
	block   [32]byte
	used    int // words used of block; 4 = exhausted
}

func (s *wordStream) next() uint64 {
	if s.used == 4 {
		var in [40]byte
		copy(in[:], s.key[:])
		for k := range 8 {
			in[32+k] = byte(s.counter >> (56 - 8*k))
		}
		s.block = sha256.Sum256(in[:])
		s.counter++
		s.used = 0
	}
	var w uint64
	for _, c := range s.block[8*s.used : 8*s.used+8] {
		w = w<<8 | uint64(c)
	}
	s.used++
	return w
}

// shuffled applies perm to options and returns them with the letter of
// the option whose source index is correct.
func shuffled(options []string, correct int, perm []int) ([]string, string) {
	out := make([]string, len(options))
	letter := ""
	for k, src := range perm {
		out[k] = options[src]
		if src == correct {
			letter = letters[k : k+1]
		}
	}
	return out, letter
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
