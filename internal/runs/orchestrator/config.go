package orchestrator

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/platform/yamlloc"
	"github.com/triage-eval/triage/internal/protocol/injection"
	"github.com/triage-eval/triage/internal/protocol/randomref"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// Config describes one run. Relative paths are relative to the config file.
type Config struct {
	// Name labels the run.
	Name string `yaml:"name"`
	// RunStore is the SQLite file holding the run's results.
	RunStore string `yaml:"run_store"`
	// GroundTruthStore is the Executor's store (SQLite path or postgres://
	// URL) when the Executor runs in process.
	GroundTruthStore string `yaml:"ground_truth_store"`
	// Problems are canonical problem files (JSONL).
	Problems []string `yaml:"problems"`
	// GroundTruth are ground-truth JSONL files imported at start (imports
	// are idempotent).
	GroundTruth []string `yaml:"ground_truth"`
	// Solvers are the (model, mode) pairs evaluated.
	Solvers []Solver `yaml:"solvers"`
	// Datasets restricts the run to these datasets; empty means all.
	Datasets []string `yaml:"datasets"`
	// PoolSize is n; default 30.
	PoolSize int `yaml:"pool_size"`
	// PartitionSeed seeds the pool partition.
	PartitionSeed uint64 `yaml:"partition_seed"`
	// Alphas are the budget fractions; default 0.25, 0.5, 0.75, 1.
	Alphas []float64 `yaml:"alphas"`
	// Variants are prompt variants (default, A, B, C) for the llm
	// strategy; default [default].
	Variants []vocab.Variant `yaml:"variants"`
	// Regimes are the execution regimes scored, "U" and/or "E"; default
	// both.
	Regimes []vocab.Regime `yaml:"regimes"`
	// Strategies are how plans are made: llm, the Planner's reference
	// strategies (random, shortest_first, all_in_order) and the
	// partial-information references the Oracle computes (population,
	// self_feasibility, self_cost; SPEC §4). Default: every reference
	// strategy, plus llm when any solver has an endpoint.
	Strategies []vocab.Strategy `yaml:"strategies"`
	// Random configures the random reference.
	Random RandomConfig `yaml:"random"`
	// StrategySeed seeds the random planning strategy.
	StrategySeed uint64 `yaml:"strategy_seed"`
	// Concurrency is how many cells run at once; default 8.
	Concurrency int `yaml:"concurrency"`
	// Endpoints is the JSON file of named LLM endpoints for the Planner.
	Endpoints string `yaml:"endpoints"`
	// LLMCache is the Planner's response cache file; "off" disables it.
	LLMCache string `yaml:"llm_cache"`
	// Services gives remote addresses; empty means in process.
	Services Services `yaml:"services"`
	// Baseline configures Phase 0 (triage baseline) and the budget-aware
	// re-solve (triage budget-aware).
	Baseline BaselineConfig `yaml:"baseline"`
	// Injection lists unsolvable-injection experiments (SPEC §5).
	Injection []Injection `yaml:"injection"`
	// Spend caps what the study's model calls may cost (SPEC §9).
	Spend SpendConfig `yaml:"spend"`

	dir  string
	file string
	// lines locates the settings of the file (nil when built in code).
	lines yamlloc.Index
}

// Injection is one unsolvable-injection experiment: the pools of Base, at
// each ratio, with some positions given to problems of Source.
type Injection struct {
	// Base is the dataset whose pools receive the unsolvable items.
	Base string `yaml:"base"`
	// Source is the dataset of unsolvable items (every one marked
	// unsolvable), e.g. "gpqa-abstain".
	Source string `yaml:"source"`
	// Ratios are the injection ratios r; default 0, 0.25, 0.5, 0.75, 1.
	Ratios []float64 `yaml:"ratios"`
	// Seed seeds the compositions; default the partition seed.
	Seed *uint64 `yaml:"seed"`
	// TwinSuffix names an item's unsolvable twin (base id + suffix), never
	// injected into a pool its base item stays in; default "-abstain".
	TwinSuffix string `yaml:"twin_suffix"`
}

// Solver is one solver of the grid.
type Solver struct {
	// Model and Mode identify the solver's ground truth.
	Model string `yaml:"model"`
	Mode  string `yaml:"mode"`
	// Endpoint names the Planner endpoint that plays this solver as a
	// planner (same weights, SPEC §7); needed for the llm strategy.
	Endpoint string `yaml:"endpoint"`
}

// RandomConfig configures the random reference.
type RandomConfig struct {
	// Method is "monte_carlo" (default) or "exact".
	Method string `yaml:"method"`
	// Samples defaults to 1000.
	Samples int32 `yaml:"samples"`
	// Seed of the Monte Carlo estimate.
	Seed uint64 `yaml:"seed"`
}

// BaselineConfig configures how solvers are run on problems. Each solver's
// endpoint plays it (the same endpoint that plans for it, SPEC §7).
type BaselineConfig struct {
	// Concurrency is the problems solved at once per solver; default 4.
	Concurrency int `yaml:"concurrency"`
	// JudgeEndpoint optionally names the endpoint that judges exact answers
	// that normalized matching could not settle.
	JudgeEndpoint string `yaml:"judge_endpoint"`
	// Python is the interpreter code problems run with; default python3 on
	// PATH.
	Python string `yaml:"python"`
	// CodeConcurrency is how many programs run at once in the sandbox;
	// default 2.
	CodeConcurrency int `yaml:"code_concurrency"`
	// BudgetAwareVariant is the prompt variant whose α = 1 plans the
	// budget-aware re-solve follows; default "default".
	BudgetAwareVariant vocab.Variant `yaml:"budget_aware_variant"`
	// Samples is k, how many times Phase 0 solves each (solver, problem)
	// (SPEC §9 repeated Phase 0); default 1, at most solving.MaxSamples.
	// Sample 1 is the ground truth; all samples are stored.
	Samples int `yaml:"samples"`

	// Batch sends each solver's Phase 0 calls through its endpoint's Batch
	// API first (SPEC §9 "Batch Phase 0"; the endpoint needs "batch": true
	// and the Executor a response cache); the records are those of the
	// synchronous path.
	Batch bool `yaml:"batch"`
}

// Services holds remote service addresses.
type Services struct {
	Planner  string `yaml:"planner"`
	Executor string `yaml:"executor"`
	Oracle   string `yaml:"oracle"`
}

// LoadConfig reads a YAML run config strictly (unknown keys are errors, with
// their line) and applies defaults.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := yamlloc.Build(data)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var c Config
	if err := dec.Decode(&c); errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty document: a run config needs at least run_store, problems and solvers", path)
	} else if err != nil {
		decodeErr := lines.DecodeError(path, err)
		if !yamlloc.OnlyUnknownKeys(err) {
			return nil, decodeErr
		}
		// Only misspelt keys: the settings were all read, and what is
		// wrong with them is said at once too.
		c.dir, c.file, c.lines = filepath.Dir(path), path, lines
		return nil, errors.Join(decodeErr, c.finish())
	}
	if err := dec.Decode(new(yaml.Node)); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: a second YAML document (after ---): a run config is one document", path)
	}
	if err := yamlloc.FractionsInIntegers(path, data, reflect.TypeOf(c)); err != nil {
		return nil, err // the decoder cut them to their integer part
	}
	c.dir, c.file, c.lines = filepath.Dir(path), path, lines
	if err := c.finish(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Where names a setting for a message about it: "run.yaml:7: alphas[1]"
// with the file and the line it is on (the file alone when the line is not
// known), the bare path for a config built in code.
func (c *Config) Where(path string) string {
	if c.file == "" {
		return path
	}
	if line := c.lines.Line(path); line > 0 {
		return fmt.Sprintf("%s:%d: %s", c.file, line, path)
	}
	return c.file + ": " + path
}

// settingError is a problem with one setting, with the line the file has
// it on (0 when the file has none, or the config was built in code), so
// that problems can be listed in the file's order (inFileOrder).
type settingError struct {
	line int
	msg  string
}

func (e *settingError) Error() string { return e.msg }

// problem returns the problem reason (format and args) with the setting at
// path, named as Where names it.
func (c *Config) problem(path, format string, args ...any) error {
	line := 0
	if c.file != "" {
		line = c.lines.Line(path)
	}
	return &settingError{line: line, msg: c.Where(path) + ": " + fmt.Sprintf(format, args...)}
}

// WhereEndpoint names, for a message about endpoint name, the setting that
// asks for it (Where): the first solver's endpoint that names it, else
// baseline.judge_endpoint, else "endpoint" (named by no setting).
func (c *Config) WhereEndpoint(name string) string {
	for i, s := range c.Solvers {
		if s.Endpoint == name {
			return c.Where(fmt.Sprintf("solvers[%d].endpoint", i))
		}
	}
	if c.Baseline.JudgeEndpoint == name {
		return c.Where("baseline.judge_endpoint")
	}
	return "endpoint"
}

// Prepare applies defaults to a config built in code and checks it;
// relative paths are taken relative to dir.
func (c *Config) Prepare(dir string) error {
	c.dir = dir
	return c.finish()
}

// finish applies defaults and reports every invalid setting.
func (c *Config) finish() error {
	given := c.givenEmpty()
	c.applyDefaults()
	return c.inFileOrder(errors.Join(given, c.validate()))
}

// inFileOrder returns err, a join of problems with settings, with them in
// the order of the lines the file has them on (those without a line
// first), so that a person fixes them top to bottom.
func (c *Config) inFileOrder(err error) error {
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return err
	}
	var errs []error
	for _, e := range joined.Unwrap() {
		if inner, ok := e.(interface{ Unwrap() []error }); ok {
			errs = append(errs, inner.Unwrap()...)
		} else {
			errs = append(errs, e)
		}
	}
	lineOf := func(e error) int {
		if se, ok := e.(*settingError); ok {
			return se.line
		}
		return 0
	}
	slices.SortStableFunc(errs, func(a, b error) int { return cmp.Compare(lineOf(a), lineOf(b)) })
	return errors.Join(errs...)
}

// givenEmpty reports the settings a config file gives as 0 or [] where
// leaving them out means their default: the file says something it cannot
// mean (pool_size: 0), and quietly reading it as the default would hide
// that. A config built in code leaves them 0 for the default.
func (c *Config) givenEmpty() error {
	if c.file == "" {
		return nil
	}
	type setting struct {
		path  string
		empty bool
		what  string // what it must be
	}
	settings := []setting{
		{"pool_size", c.PoolSize == 0, "be ≥ 1"},
		{"concurrency", c.Concurrency == 0, "be ≥ 1"},
		{"random.samples", c.Random.Samples == 0, "be ≥ 1"},
		{"baseline.concurrency", c.Baseline.Concurrency == 0, "be ≥ 1"},
		{"baseline.code_concurrency", c.Baseline.CodeConcurrency == 0, "be ≥ 1"},
		{"baseline.samples", c.Baseline.Samples == 0, "be ≥ 1"},
		{"alphas", len(c.Alphas) == 0, "list at least one α"},
		{"variants", len(c.Variants) == 0, "list at least one variant"},
		{"regimes", len(c.Regimes) == 0, "list at least one regime"},
		{"strategies", len(c.Strategies) == 0, "list at least one strategy"},
	}
	for i, in := range c.Injection {
		settings = append(settings, setting{fmt.Sprintf("injection[%d].ratios", i), len(in.Ratios) == 0, "list at least one ratio"})
	}
	var errs []error
	for _, s := range settings {
		given, null := c.lines.Given(s.path)
		if !s.empty || !given {
			continue
		}
		got := "0"
		switch {
		case null:
			got = "null"
		case strings.HasPrefix(s.what, "list"):
			got = "[]"
		}
		errs = append(errs, c.problem(s.path, "must %s, got %s (leave the key out for the default)", s.what, got))
	}
	return errors.Join(errs...)
}

// applyDefaults fills every setting the config leaves out.
func (c *Config) applyDefaults() {
	if c.PoolSize == 0 {
		c.PoolSize = 30
	}
	if len(c.Alphas) == 0 {
		c.Alphas = []float64{0.25, 0.5, 0.75, 1}
	}
	if len(c.Variants) == 0 {
		c.Variants = []vocab.Variant{vocab.Default}
	}
	if c.Concurrency == 0 {
		c.Concurrency = 8
	}
	if len(c.Regimes) == 0 {
		c.Regimes = vocab.Regimes()
	}
	if c.Baseline.Concurrency == 0 {
		c.Baseline.Concurrency = 4
	}
	if c.Baseline.CodeConcurrency == 0 {
		c.Baseline.CodeConcurrency = 2
	}
	if c.Baseline.BudgetAwareVariant == "" {
		c.Baseline.BudgetAwareVariant = vocab.Default
	}
	if c.Baseline.Samples == 0 {
		c.Baseline.Samples = 1
	}
	if c.Random.Samples == 0 {
		c.Random.Samples = 1000
	}
	for i := range c.Injection {
		in := &c.Injection[i]
		if len(in.Ratios) == 0 {
			in.Ratios = slices.Clone(injection.DefaultRatios)
		}
		if in.Seed == nil {
			seed := c.PartitionSeed
			in.Seed = &seed
		}
		if in.TwinSuffix == "" {
			in.TwinSuffix = injection.DefaultTwinSuffix
		}
	}
	if c.Random.Method == "" {
		c.Random.Method = "monte_carlo"
	}
	if len(c.Strategies) == 0 {
		c.Strategies = append([]vocab.Strategy{vocab.Random, vocab.ShortestFirst, vocab.AllInOrder}, vocab.PartialReferences()...)
		if slices.ContainsFunc(c.Solvers, func(s Solver) bool { return s.Endpoint != "" }) {
			c.Strategies = append(c.Strategies, vocab.LLM)
		}
	}
}

// validate reports every invalid setting of the baseline: block to bad.
func (b *BaselineConfig) validate(bad func(field, format string, args ...any)) {
	if b.Concurrency < 1 || b.Concurrency > 256 {
		bad("baseline.concurrency", "must be in [1, 256], got %d", b.Concurrency)
	}
	if b.CodeConcurrency < 1 {
		bad("baseline.code_concurrency", "must be ≥ 1, got %d", b.CodeConcurrency)
	}
	if b.Samples < 1 || b.Samples > solving.MaxSamples {
		bad("baseline.samples", "must be in [1, %d] (samples per solver and problem), got %d", solving.MaxSamples, b.Samples)
	}
	if !b.BudgetAwareVariant.Valid() {
		bad("baseline.budget_aware_variant", "must be default, A, B or C, got %q", b.BudgetAwareVariant)
	}
}

// validate reports every invalid setting, each naming its field.
func (c *Config) validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, c.problem(field, format, args...))
	}
	if c.RunStore == "" {
		bad("run_store", "required")
	}
	if c.Services.Executor == "" && c.GroundTruthStore == "" {
		bad("ground_truth_store", "required when the executor runs in process")
	}
	if len(c.Problems) == 0 {
		bad("problems", "at least one problem file is required")
	}
	if len(c.Solvers) == 0 {
		bad("solvers", "at least one solver is required")
	}
	for i, s := range c.Solvers {
		if s.Model == "" {
			bad(fmt.Sprintf("solvers[%d].model", i), "required")
		}
		if s.Mode != "standard" && s.Mode != "extended" {
			bad(fmt.Sprintf("solvers[%d].mode", i), "must be standard or extended, got %q", s.Mode)
		}
		if slices.Contains(c.Strategies, vocab.LLM) && s.Endpoint == "" {
			bad(fmt.Sprintf("solvers[%d].endpoint", i), "the llm strategy needs a planner endpoint for every solver")
		}
		if j := slices.IndexFunc(c.Solvers[:i], func(o Solver) bool { return o.Model == s.Model && o.Mode == s.Mode }); j >= 0 {
			bad(fmt.Sprintf("solvers[%d]", i), "repeats solvers[%d] (%s/%s): a solver (model, mode) is evaluated once", j, s.Model, s.Mode)
		}
	}
	if c.PoolSize < 1 {
		bad("pool_size", "must be ≥ 1, got %d", c.PoolSize)
	}
	c.validateLists(bad)
	if c.Random.Method != "monte_carlo" && c.Random.Method != "exact" {
		bad("random.method", "must be monte_carlo or exact, got %q", c.Random.Method)
	}
	if c.Random.Samples < 1 || c.Random.Samples > randomref.MaxSamples {
		bad("random.samples", "must be in [1, %d] (shuffles of the random reference; absent means 1000), got %d", randomref.MaxSamples, c.Random.Samples)
	}
	if c.Concurrency < 1 {
		bad("concurrency", "must be ≥ 1, got %d", c.Concurrency)
	}
	c.Baseline.validate(bad)
	if c := c.Spend.CapUSD; c != nil && (math.IsNaN(*c) || math.IsInf(*c, 0) || *c < 0) {
		bad("spend.cap_usd", "must be a finite number of dollars ≥ 0, got %v", *c)
	}
	c.validateInjection(bad)
	return errors.Join(errs...)
}

// validateLists reports the invalid or repeated entries of the grid's
// lists: α, variants, strategies and regimes.
func (c *Config) validateLists(bad func(field, format string, args ...any)) {
	for i, a := range c.Alphas {
		switch {
		case !(a > 0 && a <= 1):
			bad(fmt.Sprintf("alphas[%d]", i), "must be in (0, 1], got %v", a)
		case slices.Index(c.Alphas, a) != i:
			bad(fmt.Sprintf("alphas[%d]", i), "repeats %v", a)
		}
	}
	for i, v := range c.Variants {
		switch {
		case !v.Valid():
			bad(fmt.Sprintf("variants[%d]", i), "must be default, A, B or C, got %q", v)
		case slices.Index(c.Variants, v) != i:
			bad(fmt.Sprintf("variants[%d]", i), "repeats %q", v)
		}
	}
	for i, s := range c.Strategies {
		switch {
		case !s.Valid():
			bad(fmt.Sprintf("strategies[%d]", i), "unknown strategy %q", s)
		case slices.Index(c.Strategies, s) != i:
			bad(fmt.Sprintf("strategies[%d]", i), "repeats %q", s)
		}
	}
	for i, r := range c.Regimes {
		if !r.Valid() || slices.Index(c.Regimes, r) != i {
			bad(fmt.Sprintf("regimes[%d]", i), "must be U or E, each once, got %q", r)
		}
	}
}

// validateInjection reports invalid injection experiments.
func (c *Config) validateInjection(bad func(field, format string, args ...any)) {
	seen := map[[2]string]int{}
	for i, in := range c.Injection {
		field := fmt.Sprintf("injection[%d]", i)
		switch {
		case in.Base == "":
			bad(field+".base", "required: the dataset whose pools receive unsolvable items")
		case in.Source == "":
			bad(field+".source", "required: the dataset of unsolvable items")
		case in.Base == in.Source:
			bad(field+".source", "must differ from the base dataset %q", in.Base)
		}
		if first, dup := seen[[2]string{in.Base, in.Source}]; dup {
			bad(field, "repeats injection[%d] (%s into %s): give it more ratios instead", first, in.Source, in.Base)
		}
		seen[[2]string{in.Base, in.Source}] = i
		for j, r := range in.Ratios {
			if !(r >= 0 && r <= 1) || slices.Index(in.Ratios, r) != j {
				bad(fmt.Sprintf("%s.ratios[%d]", field, j), "must be in [0, 1], each once, got %v", r)
			}
		}
	}
}

// File is the path the config was loaded from ("" when built in code).
func (c *Config) File() string { return c.file }

// Path resolves a path from the config relative to the config's folder; a
// store's "sqlite:PATH" keeps its prefix, PATH resolved.
func (c *Config) Path(p string) string {
	if rest, ok := strings.CutPrefix(p, sqldb.SQLitePrefix); ok {
		return sqldb.SQLitePrefix + c.Path(rest)
	}
	if p == "" || p == "off" || filepath.IsAbs(p) || c.dir == "" || strings.Contains(p, "://") {
		return p
	}
	return filepath.Join(c.dir, p)
}

// LoadProblems reads every problem file, keyed by dataset and id. A problem
// given again in a later file, the same in every field, is read once; one
// given again otherwise is an error naming both files, since which of the
// two the run should measure is not known (a file's own repeats are
// problems.ReadFile's).
func (c *Config) LoadProblems() (map[string]map[string]problems.Problem, error) {
	out := map[string]map[string]problems.Problem{}
	from := map[string]map[string]int{} // the index in c.Problems of each problem's file
	for i, f := range c.Problems {
		ps, err := problems.ReadFile(c.Path(f))
		if pathErr := (*fs.PathError)(nil); errors.As(err, &pathErr) {
			return nil, fmt.Errorf("%s: %w", c.Where(fmt.Sprintf("problems[%d]", i)), err)
		}
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if out[p.Dataset] == nil {
				out[p.Dataset] = map[string]problems.Problem{}
				from[p.Dataset] = map[string]int{}
			}
			if q, ok := out[p.Dataset][p.ID]; ok {
				if problems.Same(p, q) {
					continue
				}
				j := from[p.Dataset][p.ID]
				return nil, fmt.Errorf("%s (%s): id %q of dataset %q is also in %s (%s), with another text, value, grading or unsolvable mark: give each problem once",
					c.Where(fmt.Sprintf("problems[%d]", i)), f, p.ID, p.Dataset, fmt.Sprintf("problems[%d]", j), c.Problems[j])
			}
			out[p.Dataset][p.ID] = p
			from[p.Dataset][p.ID] = i
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no problems in %s", c.Where("problems"), strings.Join(c.Problems, ", "))
	}
	return out, nil
}

// SelectedDatasets returns the datasets of probs whose own pools the run
// plans, sorted: those Datasets names or, when it is empty, every dataset
// but the injection sources (their items enter the base pools instead).
func (c *Config) SelectedDatasets(probs map[string]map[string]problems.Problem) []string {
	var out []string
	for d := range probs {
		switch {
		case len(c.Datasets) > 0 && slices.Contains(c.Datasets, d):
		case len(c.Datasets) == 0 && !slices.ContainsFunc(c.Injection, func(in Injection) bool { return in.Source == d }):
		default:
			continue
		}
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// BaselineDatasets returns the datasets of probs whose problems Phase 0
// solves, sorted: the selected ones and every injection's base and source,
// so that every item an injected pool can hold has a measured cost.
func (c *Config) BaselineDatasets(probs map[string]map[string]problems.Problem) []string {
	out := c.SelectedDatasets(probs)
	for _, in := range c.Injection {
		for _, d := range []string{in.Base, in.Source} {
			if _, ok := probs[d]; ok && !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	slices.Sort(out)
	return out
}
