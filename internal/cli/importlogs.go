package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/triage-eval/triage/internal/phase0/harnesslog"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/gtfile"
	"github.com/triage-eval/triage/internal/store/problems"
)

// runImportGroundTruth converts other harnesses' logs to ground truth (SPEC
// §9 "Reuse"): written as ground-truth JSONL with --out, else imported into
// the store like triage ground-truth import. All or nothing either way.
func runImportGroundTruth(ctx context.Context, args []string, env Env) (err error) {
	fs := newFlagSet("import-ground-truth", env.Stderr)
	from := fs.String("from", "", "log format: inspect (inspect_ai .eval or .json) or lm-eval (lm-evaluation-harness samples_*.jsonl); default from each file (zip archive, .json, .jsonl)")
	problemsFile := fs.String("problems", "", "canonical problem file (triage import) whose problems the samples are matched to (required)")
	dataset := fs.String("dataset", "", "dataset of --problems the samples belong to; default the file's only dataset")
	model := fs.String("model", "", "solver model; default the log's (inspect_ai eval.model); required for lm-eval")
	mode := fs.String("mode", "", "solver mode: standard or extended (required)")
	match := fs.String("match", string(harnesslog.MatchID), "how a sample finds its problem: id (the sample's id equals the problem's) or text (its question text equals, or begins, the problem's)")
	key := fs.String("key", "", "dotted path of the sample field holding the id or the question (e.g. metadata.record_id, doc.id, doc.question); default inspect_ai's id or input; required for lm-eval")
	var scorer string
	fs.StringVar(&scorer, "scorer", "", "inspect_ai scorer that gives y (needed when samples have several)")
	fs.StringVar(&scorer, "metric", "", "lm-evaluation-harness metric that gives y, e.g. exact_match or acc (same as --scorer)")
	filter := fs.String("filter", "", "lm-evaluation-harness filter to keep, e.g. strict-match (needed when the logs have several)")
	partial := fs.Bool("partial", false, "accept inspect_ai logs whose eval ended in \"error\" or \"cancelled\" (refused otherwise: such a run may have left problems out)")
	out := fs.String("out", "", "write ground-truth JSONL to this file (atomically) instead of importing into the store")
	storeLoc := fs.String("store", DefaultStore, "ground-truth store used in process: a SQLite file path, sqlite:PATH, or a postgres:// URL")
	addr := fs.String("executor-addr", "", "remote Executor (host:port); default: in process over --store")
	dial := addDialFlags(fs)
	config := fs.String("config", "", "a run config whose ground_truth_store (or services.executor) to use")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: triage import-ground-truth --problems FILE --mode MODE [flags] LOG...

Reads inspect_ai logs (.eval, .json) and lm-evaluation-harness samples_*.jsonl
and makes one ground-truth record per sample: the problem of --problems it
matches, the output tokens the log reports (reasoning included; cost rule
harness_output), y from its score, and its source (LOG#SAMPLE). A sample
without output tokens or a score, or that matches no problem, is refused
with the reason, and nothing is written or imported. With --out the records
are written as ground-truth JSONL; otherwise they are imported into the
store (the config's ground_truth_store with --config, else --store). See
docs/phase0.md, "Reusing existing runs".

flags:
`)
		fs.PrintDefaults()
	}
	logs, err := parseFlags(fs, args, env.Getenv, 1<<16)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	switch {
	case len(logs) == 0:
		return fmt.Errorf("%w: triage import-ground-truth needs at least one LOG", ErrUsage)
	case *problemsFile == "":
		return fmt.Errorf("%w: --problems is required: the canonical problem file the samples are matched to", ErrUsage)
	case *mode != groundtruth.ModeStandard && *mode != groundtruth.ModeExtended:
		return fmt.Errorf("%w: --mode must be %q or %q", ErrUsage, groundtruth.ModeStandard, groundtruth.ModeExtended)
	case *from != "" && *from != string(harnesslog.Inspect) && *from != string(harnesslog.LMEval):
		return fmt.Errorf("%w: --from must be %q or %q, got %q", ErrUsage, harnesslog.Inspect, harnesslog.LMEval, *from)
	case *match != string(harnesslog.MatchID) && *match != string(harnesslog.MatchText):
		return fmt.Errorf("%w: --match must be %q or %q, got %q", ErrUsage, harnesslog.MatchID, harnesslog.MatchText, *match)
	case *out != "" && (*config != "" || *addr != ""):
		return fmt.Errorf("%w: --out writes a file and imports nothing: drop --config and --executor-addr, or --out", ErrUsage)
	}
	ps, err := problems.ReadFile(*problemsFile)
	if err != nil {
		return err
	}
	var samples []*harnesslog.Sample
	for _, path := range logs {
		s, err := harnesslog.ReadFile(path, harnesslog.Harness(*from), harnesslog.DefaultLimits())
		if err != nil {
			return fmt.Errorf("import-ground-truth: nothing written:\n%w", err)
		}
		samples = append(samples, s...)
	}
	res, err := harnesslog.Convert(samples, harnesslog.Options{
		Model: *model, Mode: *mode, Dataset: *dataset, Problems: ps, ProblemsFile: *problemsFile, Partial: *partial,
		Match: harnesslog.Match(*match), Key: *key, Scorer: scorer, Filter: *filter, Now: time.Now().UTC().Truncate(time.Microsecond),
	})
	if err != nil {
		return fmt.Errorf("import-ground-truth: nothing written:\n%w", err)
	}
	if len(res.Records) == 0 {
		return fmt.Errorf("import-ground-truth: the logs hold no sample to import (%s), nothing written", skippedText(res.Skipped))
	}
	var buf bytes.Buffer
	if err := writeRecords(&buf, res.Records); err != nil {
		return err
	}
	for _, why := range slices.Sorted(maps.Keys(res.Skipped)) {
		fmt.Fprintf(env.Stderr, "skipped %d samples: %s\n", res.Skipped[why], why)
	}
	if n := repeatedSamples(res.Records); n > 0 {
		fmt.Fprintf(env.Stderr, "%d of the %d records are repeated Phase 0 samples (inspect_ai epochs after the first; SPEC §9)\n", n, len(res.Records))
	}
	if *out != "" {
		if err := writeFileAtomic(*out, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "wrote %d records to %s\n", len(res.Records), *out)
		return nil
	}
	client, closeExec, err := openExecutor(ctx, *storeLoc, *addr, *config, dial, false, env)
	if err != nil {
		return err
	}
	defer closeInto(&err, closeExec)
	resp, err := gtfile.Import(ctx, client, "records converted from the logs", &buf)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%d records imported (%d inserted, %d updated, %d unchanged)\n",
		resp.GetReceived(), resp.GetInserted(), resp.GetUpdated(), resp.GetUnchanged())
	return nil
}

// repeatedSamples counts the records that are samples 2.. of their key.
func repeatedSamples(records []groundtruth.Record) int {
	n := 0
	for _, r := range records {
		if r.SampleIndex() > 1 {
			n++
		}
	}
	return n
}

// writeRecords writes records as ground-truth JSONL.
func writeRecords(w io.Writer, records []groundtruth.Record) error {
	for _, r := range records {
		line, err := gtfile.FormatLine(gtfile.FromRecord(r))
		if err != nil {
			return err
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// skippedText says what was skipped, or that the logs had no sample.
func skippedText(skipped map[string]int) string {
	if len(skipped) == 0 {
		return "they have no samples"
	}
	var b bytes.Buffer
	for i, why := range slices.Sorted(maps.Keys(skipped)) {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%d skipped: %s", skipped[why], why)
	}
	return b.String()
}
