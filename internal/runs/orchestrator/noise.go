package orchestrator

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// NoiseInput returns what a report's measurement-noise part is computed
// from (SPEC §9, report.NoiseInput), or nil when no item of the run has
// more than one Phase 0 sample: then nothing else is read. The samples
// are those of cfg's solvers on every dataset Phase 0 measured for the run
// (Config.BaselineDatasets, injection sources included), read through
// exec; the pools are the manifest's, valued and marked unsolvable from
// cfg's problem files; the plans are those of the scored records among
// records (a run's Results), each normalized against its solver's pool as
// the Executor normalized it before scoring (execution.NormalizeIDs over
// the pool's items whose sample 1 is gradeable). The random orders are
// seeded with the run's random.seed.
func NoiseInput(ctx context.Context, rs runstore.Store, cfg *Config, exec triagev1.ExecutorServiceClient, records []report.ScoreRecord) (*report.NoiseInput, error) {
	probs, err := cfg.LoadProblems()
	if err != nil {
		return nil, err
	}
	samples, err := LoadSamples(ctx, exec, cfg.Solvers, probs, cfg.BaselineDatasets(probs))
	if err != nil {
		return nil, err
	}
	in := &report.NoiseInput{Samples: make(report.ItemSamples, len(samples)), RandomSeed: cfg.Random.Seed}
	k := 0
	for key, s := range samples {
		k = max(k, len(s))
		out := make([]report.Sample, len(s))
		for i, x := range s {
			out[i] = report.Sample(x)
		}
		in.Samples[report.ItemKey(key)] = out
	}
	if k < 2 {
		return nil, nil
	}
	m, err := rs.Manifest(ctx)
	if err != nil {
		return nil, err
	}
	in.Pools = manifestPools(m, probs)
	if in.Plans, err = storedPlans(ctx, rs, records, in); err != nil {
		return nil, err
	}
	return in, nil
}

// manifestPools are the manifest's plain and injected pools, each problem
// valued and marked unsolvable from probs (a problem no file lists keeps
// value 1 and is taken as solvable).
func manifestPools(m runstore.Manifest, probs map[string]map[string]problems.Problem) map[report.PoolKey][]report.PoolProblem {
	out := map[report.PoolKey][]report.PoolProblem{}
	problem := func(dataset, id string) report.PoolProblem {
		p := probs[dataset][id]
		return report.PoolProblem{Dataset: dataset, ProblemID: id, Value: p.Value, Unsolvable: p.Unsolvable}
	}
	for d, ps := range m.Partitions {
		for _, p := range ps {
			list := make([]report.PoolProblem, len(p.ProblemIDs))
			for i, id := range p.ProblemIDs {
				list[i] = problem(d, id)
			}
			out[report.PoolKey{Dataset: d, Pool: p.Index}] = list
		}
	}
	for _, inj := range m.Injected {
		list := make([]report.PoolProblem, len(inj.ProblemIDs))
		for i, id := range inj.ProblemIDs {
			d := inj.Base
			if i < len(inj.Injected) && inj.Injected[i] {
				d = inj.Source
			}
			list[i] = problem(d, id)
		}
		out[report.PoolKey{Dataset: inj.Base, Source: inj.Source, Ratio: inj.Ratio, Pool: inj.Index}] = list
	}
	return out
}

// storedPlans reads the plan of every cell with a scored record among
// records and normalizes it against the cell's pool for its solver.
func storedPlans(ctx context.Context, rs runstore.Store, records []report.ScoreRecord, in *report.NoiseInput) (map[report.PlanKey][]report.PlanStep, error) {
	type wanted struct {
		key     report.PlanKey
		partial bool
	}
	want := map[string]wanted{}
	for _, r := range records {
		if r.Excluded != "" {
			continue
		}
		s, st, v := Solver{Model: r.Model, Mode: r.Mode}, vocab.Strategy(r.Strategy), vocab.Variant(r.Variant)
		pk := report.PoolKey{Dataset: r.Dataset, Pool: r.Pool}
		key := CellKey(s, r.Dataset, r.Pool, r.Alpha, st, v)
		if r.Ratio != nil {
			pk.Source, pk.Ratio = r.Source, *r.Ratio
			key = InjectedCellKey(s, r.Dataset, r.Pool, r.Alpha, st, v, r.Source, *r.Ratio)
		}
		want[key] = wanted{key: report.PlanKey{Model: r.Model, Mode: r.Mode, Pool: pk, Alpha: r.Alpha, Variant: r.Variant, Strategy: r.Strategy}, partial: st.PartialReference()}
	}
	out := make(map[report.PlanKey][]report.PlanStep, len(want))
	if len(want) == 0 {
		return out, nil
	}
	lookups := map[lookupKey]map[string]int{}
	err := rs.EachScoredPlan(ctx, func(key string, raw []byte) error {
		w, ok := want[key]
		if !ok {
			return nil
		}
		steps, err := planSteps(raw, w.partial)
		if err != nil {
			return fmt.Errorf("run store: the plan of cell %s: %w", key, err)
		}
		lk := lookupKey{model: w.key.Model, mode: w.key.Mode, pool: w.key.Pool}
		index, ok := lookups[lk]
		if !ok {
			index = gradeableIndex(in, lk)
			lookups[lk] = index
		}
		plan := execution.NormalizeIDs(len(index), func(id string) (int, bool) { i, ok := index[id]; return i, ok }, protoconv.Steps(steps))
		norm := make([]report.PlanStep, len(plan.Steps))
		for i, s := range plan.Steps {
			norm[i] = report.PlanStep{ProblemID: s.ID, Tokens: s.Tokens}
		}
		out[w.key] = norm
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// lookupKey names one solver's pool.
type lookupKey struct {
	model, mode string
	pool        report.PoolKey
}

// gradeableIndex is the pool's items for the solver, as the run executed
// its plans over them: the problems whose sample 1 is gradeable, by id,
// at their position among them (SPEC §1).
func gradeableIndex(in *report.NoiseInput, k lookupKey) map[string]int {
	out := map[string]int{}
	for _, p := range in.Pools[k.pool] {
		s := in.Samples[report.ItemKey{Model: k.model, Mode: k.mode, Dataset: p.Dataset, ProblemID: p.ProblemID}]
		if len(s) > 0 && s[0].Gradeable {
			out[p.ProblemID] = len(out)
		}
	}
	return out
}

// planSteps are the steps a cell's stored plan sent the Executor: the
// Oracle's PartialReferencePlan for a partial-information reference, else
// the parsed plan of the Planner's CreatePlanResponse.
func planSteps(raw []byte, partial bool) ([]*triagev1.PlanStep, error) {
	opts := protojson.UnmarshalOptions{DiscardUnknown: true}
	if partial {
		var p triagev1.PartialReferencePlan
		if err := opts.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		return p.GetPlan(), nil
	}
	var p triagev1.CreatePlanResponse
	if err := opts.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	return p.GetParsed().GetPlan(), nil
}

// ManifestConfig returns the config a run recorded in its manifest
// (runstore.Manifest.Config), with defaults applied, its relative paths
// taken from the folder the config was in: found from runStore, the run
// store's path, which is the config's run_store under that folder. When
// the folder cannot be found (the run store was moved or given as another
// path) and a path the Executor or the problems need is relative, it
// returns an error saying so: the config itself must then be given. So it
// does when the Executor's ground_truth_store is a URL whose password the
// manifest masked (recordedConfig): it is not tried with the mask.
func ManifestConfig(raw []byte, runStore string) (*Config, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("the run store records no config")
	}
	var c Config
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("the run store's config: %w", err)
	}
	dir, found := configDir(c.RunStore, runStore)
	if !found {
		var relative []string
		if c.Services.Executor == "" && isRelative(c.GroundTruthStore) {
			relative = append(relative, "ground_truth_store "+c.GroundTruthStore)
		}
		for _, p := range c.Problems {
			if isRelative(p) {
				relative = append(relative, "problems "+p)
			}
		}
		if len(relative) > 0 {
			return nil, fmt.Errorf("the run store's config names %s relative to a folder the run store %s is not in", strings.Join(relative, ", "), sqldb.Redact(runStore))
		}
	}
	if c.Services.Executor == "" && sqldb.IsRedacted(c.GroundTruthStore) {
		// Connecting would send the mask as the password.
		return nil, fmt.Errorf("the run store's config records ground_truth_store %s without its password (masked)", c.GroundTruthStore)
	}
	if err := c.Prepare(dir); err != nil {
		return nil, fmt.Errorf("the run store's config: %w", err)
	}
	return &c, nil
}

// configDir is the folder a config whose run_store is runStoreSetting was
// in, given the run store's path; found is false when the path does not
// end with the setting.
func configDir(runStoreSetting, runStore string) (string, bool) {
	if runStoreSetting == "" || !isRelative(runStoreSetting) {
		return "", false
	}
	setting, path := filepath.Clean(sqldb.SQLitePath(runStoreSetting)), filepath.Clean(sqldb.SQLitePath(runStore))
	if path == setting {
		return ".", true
	}
	prefix, ok := strings.CutSuffix(path, string(filepath.Separator)+setting)
	if !ok {
		return "", false
	}
	if prefix == "" {
		prefix = string(filepath.Separator)
	}
	return prefix, true
}

// isRelative reports whether a config's location is a relative file path
// (not absolute, not a URL, not "off"; a store's sqlite:PATH by its PATH).
func isRelative(p string) bool {
	p = sqldb.SQLitePath(p)
	return p != "" && p != "off" && !filepath.IsAbs(p) && !strings.Contains(p, "://")
}
