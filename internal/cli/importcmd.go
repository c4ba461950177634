package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/phase0/importers"
	"github.com/triage-eval/triage/internal/store/problems"
)

// importKinds are the benchmarks triage import converts, with a summary.
var importKinds = []struct{ name, summary string }{
	{"aime", "AIME JSONL (id/problem/answer/url or prompt/answer form)"},
	{"mmlu", "MMLU JSONL (question, type, choices, answer)"},
	{"gpqa", "GPQA CSV or JSONL (Hugging Face columns), options shuffled"},
	{"lcb", "LiveCodeBench JSONL (native schema), contest_date window"},
	{"hle", "Humanity's Last Exam JSONL or Parquet"},
	{"mmlu-abstain", "MMLU-Math-Abstain: unsolvable variants of MMLU (AbstentionBench recipe)"},
	{"gpqa-abstain", "GPQA-Abstain: unsolvable variants of GPQA (AbstentionBench recipe)"},
}

func importUsage(w io.Writer) {
	fmt.Fprint(w, "usage: triage import KIND [flags] FILE...\n\nConverts a benchmark's files to canonical problem JSONL. Kinds:\n")
	for _, k := range importKinds {
		fmt.Fprintf(w, "  %-13s %s\n", k.name, k.summary)
	}
	fmt.Fprint(w, "\nRun 'triage import KIND -h' for its flags; see docs/phase0.md.\n")
}

func runImport(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		importUsage(env.Stderr)
		return fmt.Errorf("%w: triage import needs a KIND", ErrUsage)
	}
	kind := args[0]
	if kind == "-h" || kind == "--help" || kind == "help" {
		importUsage(env.Stdout)
		return nil
	}
	fs := newFlagSet("import "+kind, env.Stderr)
	out := fs.String("out", "", "write the problems to this file (atomically: nothing is written on error); default standard output")
	dataset := fs.String("dataset", "", "dataset name; default per kind (aime, mmlu-math, gpqa, lcb, hle or hle-<category>, mmlu-math-abstain, gpqa-abstain)")
	var importFn func([]importers.Input) ([]problems.Problem, *importers.Report, error)
	check := func() error { return nil } // flag combinations the kind refuses
	switch kind {
	case "aime":
		year := fs.Int("year", 0, "contest year of prompt/answer-form files; default from the file name (aime2025…)")
		importFn = func(in []importers.Input) ([]problems.Problem, *importers.Report, error) {
			return importers.AIME(in, importers.AIMEOptions{Dataset: *dataset, Year: *year})
		}
	case "mmlu", "mmlu-abstain":
		def := "all"
		if kind == "mmlu-abstain" {
			def = strings.Join(importers.MMLUAbstainSubjects, ",")
		}
		subjects := fs.String(importers.FlagSubjects, "", "comma-separated subjects to keep (default "+def+")")
		shuffle := fs.Bool("shuffle", false, "shuffle the options with --seed (default: source order)")
		seed := fs.Uint64("seed", 0, "seed of the option shuffle (recorded in the grading data)")
		importFn = func(in []importers.Input) ([]problems.Problem, *importers.Report, error) {
			opt := importers.MMLUOptions{Dataset: *dataset, Subjects: splitList(*subjects), Shuffle: *shuffle, Seed: *seed}
			if kind == "mmlu" {
				return importers.MMLU(in, opt)
			}
			return importers.MMLUAbstain(in, opt)
		}
	case "gpqa", "gpqa-abstain":
		seed := fs.Uint64("seed", 0, "seed of the option shuffle (recorded in the grading data)")
		importFn = func(in []importers.Input) ([]problems.Problem, *importers.Report, error) {
			opt := importers.GPQAOptions{Dataset: *dataset, Seed: *seed}
			if kind == "gpqa" {
				return importers.GPQA(in, opt)
			}
			return importers.GPQAAbstain(in, opt)
		}
	case "lcb":
		since, until := importers.LCBDefaultSince, time.Time{}
		fs.Var(dateValue{&since}, importers.FlagSince, `keep problems with contest_date on or after this date (YYYY-MM-DD; "" for no bound)`)
		fs.Var(dateValue{&until}, importers.FlagUntil, "keep problems with contest_date before this date (YYYY-MM-DD; default no bound)")
		publicOnly := fs.Bool("public-only", false, "drop the private test cases (every problem is then graded on its public tests alone)")
		requireHidden := fs.Bool(importers.FlagRequireHiddenTests, false, "skip the problems without hidden (private) tests: graded on their public tests alone, which are the statement's examples, they reward a program that looks its input up")
		importFn = func(in []importers.Input) ([]problems.Problem, *importers.Report, error) {
			return importers.LCB(in, importers.LCBOptions{Dataset: *dataset, Since: since, Until: until, PublicOnly: *publicOnly, RequireHiddenTests: *requireHidden})
		}
		check = func() error {
			if *publicOnly && *requireHidden {
				return fmt.Errorf("%w: --public-only drops the hidden tests that --%s requires; choose one", ErrUsage, importers.FlagRequireHiddenTests)
			}
			return nil
		}
	case "hle":
		var categories []string
		fs.Func(importers.FlagCategory, "keep only this category (repeatable or comma-separated; matched ignoring case and punctuation); with exactly one, the dataset defaults to hle-<category>", func(v string) error {
			categories = append(categories, splitList(v)...)
			return nil
		})
		importFn = func(in []importers.Input) ([]problems.Problem, *importers.Report, error) {
			return importers.HLE(in, importers.HLEOptions{Dataset: *dataset, Categories: categories})
		}
	default:
		importUsage(env.Stderr)
		return fmt.Errorf("%w: unknown import kind %q", ErrUsage, kind)
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: triage import %s [flags] FILE...\n\nWrites canonical problem JSONL (FILE \"-\" is standard input) and prints what was\nskipped to standard error. Flags can also be set with TRIAGE_<FLAG>.\n\nflags:\n", kind)
		fs.PrintDefaults()
	}
	files, err := parseFlags(fs, args[1:], env.Getenv, math.MaxInt)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%w: triage import %s needs at least one FILE (\"-\" for standard input)", ErrUsage, kind)
	}
	if err := check(); err != nil {
		return err
	}
	inputs, closeAll, err := openImportInputs(files, env.Stdin)
	if err != nil {
		return err
	}
	defer closeAll()
	ps, rep, err := importFn(inputs)
	if err != nil {
		var ie *importers.Error
		if errors.As(err, &ie) {
			return fmt.Errorf("import %s: malformed input, nothing written:\n%w", kind, err)
		}
		return err
	}
	if why := rep.KeptNothing(); why != "" {
		return fmt.Errorf("import %s: kept no problems, nothing written:\n%s", kind, why)
	}
	if *out == "" {
		var buf bytes.Buffer
		if err := importers.WriteJSONL(&buf, ps); err != nil {
			return err
		}
		if _, err := env.Stdout.Write(buf.Bytes()); err != nil {
			return err
		}
	} else if err := writeFileAtomic(*out, func(w io.Writer) error { return importers.WriteJSONL(w, ps) }); err != nil {
		return err
	}
	if err := rep.Write(env.Stderr); err != nil {
		return err
	}
	if *out != "" {
		fmt.Fprintf(env.Stderr, "wrote %d problems to %s\n", len(ps), *out)
	}
	return nil
}

// openImportInputs opens the files ("-" is stdin, at most once).
func openImportInputs(paths []string, stdin io.Reader) ([]importers.Input, func(), error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			closeQuietly(f) // only read
		}
	}
	inputs := make([]importers.Input, 0, len(paths))
	usedStdin := false
	for _, p := range paths {
		if p == "-" {
			if usedStdin {
				closeAll()
				return nil, nil, fmt.Errorf("%w: standard input (\"-\") given twice", ErrUsage)
			}
			usedStdin = true
			inputs = append(inputs, importers.Input{Name: "-", R: stdin})
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		files = append(files, f)
		inputs = append(inputs, importers.Input{Name: p, R: f})
	}
	return inputs, closeAll, nil
}

// writeFileAtomic writes path through a temporary file in the same
// directory renamed over it, so that path is either left as it was or
// replaced whole.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			closeQuietly(tmp) // discarded, and perhaps closed already
			err = errors.Join(err, os.Remove(tmp.Name()))
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err = write(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// dateValue is a flag holding a date: YYYY-MM-DD (or RFC 3339) as UTC;
// "" is the zero time (no bound).
type dateValue struct{ t *time.Time }

func (d dateValue) String() string {
	if d.t == nil || d.t.IsZero() {
		return ""
	}
	return d.t.Format(time.DateOnly)
}

func (d dateValue) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		*d.t = time.Time{}
		return nil
	}
	for _, layout := range []string{time.DateOnly, time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			*d.t = t.UTC()
			return nil
		}
	}
	return fmt.Errorf("want a date like 2025-01-01, got %q", s)
}
