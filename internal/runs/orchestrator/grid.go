package orchestrator

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/protocol/injection"
	"github.com/triage-eval/triage/internal/protocol/pools"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// ExcludedEmptyPool is the exclusion reason of a cell whose pool holds no
// gradeable item for its solver: nothing is planned, no call is made.
const ExcludedEmptyPool = "empty_pool"

// grid is everything a run settles before its first model call: the pools
// (and the injected pools), each solver's gradeable items in them, the cells
// with their fingerprints, the base accuracies, and the problems that stop
// the run (preflight).
type grid struct {
	partitions map[string][]pools.Pool
	injected   []runstore.InjectedPool
	cells      []cell
	accuracy   []report.Accuracy
	problems   []string
	// texts are the problems' text digests (layout.texts).
	texts textDigests
}

// group is one (solver, pool): the cells that share its references.
type group struct {
	solver  Solver
	dataset string
	pool    pools.Pool
	// inj is the injection experiment's pool, nil for a plain pool: the
	// pool's ids are then inj.ProblemIDs.
	inj    *runstore.InjectedPool
	items  []*triagev1.GroundTruthItem // the solver's gradeable items, pool order
	texts  map[string]problems.Problem
	digest string // poolDigest: what every cell of the group depends on
	// population is the ground truth of the solver's population on the
	// group's items (SPEC §4), nil when the run plans no partial-information
	// reference; populationDigest hashes it for those cells' fingerprints.
	population       []member
	populationDigest string
	once             sync.Once
	refs             map[float64]*triagev1.BudgetReferences
	// noPopulation: the Oracle found no population record of any item.
	noPopulation bool
	refsErr      error
	// unmeasured counts the group's problems with no ground truth stored
	// for its solver yet (Phase 0 has not reached them).
	unmeasured int
}

// ids returns the group's problems in pool order, before the solver's
// ungradeable items are dropped.
func (g *group) ids() []string {
	if g.inj != nil {
		return g.inj.ProblemIDs
	}
	return g.pool.ProblemIDs
}

// cell is one plan to make and score.
type cell struct {
	g           *group
	alpha       float64
	strategy    vocab.Strategy
	variant     vocab.Variant
	fingerprint string
	// k is the cell's key, set with its fingerprint: a run asks for it
	// several times a cell (scheduling, claims, storing).
	k string
}

func (c cell) key() string {
	if c.k != "" {
		return c.k
	}
	if c.g.inj != nil {
		return InjectedCellKey(c.g.solver, c.g.dataset, c.g.pool.Index, c.alpha, c.strategy, c.variant, c.g.inj.Source, c.g.inj.Ratio)
	}
	return CellKey(c.g.solver, c.g.dataset, c.g.pool.Index, c.alpha, c.strategy, c.variant)
}

// InjectedCellKey is the run store's key of one cell of an injected pool:
// base dataset's pool pool with problems of source at ratio r.
func InjectedCellKey(s Solver, dataset string, pool int, alpha float64, strategy vocab.Strategy, variant vocab.Variant, source string, ratio float64) string {
	return CellKey(s, dataset, pool, alpha, strategy, variant) + fmt.Sprintf("|inject=%s@%g", source, ratio)
}

// CellKey is the run store's key of one cell of a plain pool.
func CellKey(s Solver, dataset string, pool int, alpha float64, strategy vocab.Strategy, variant vocab.Variant) string {
	return fmt.Sprintf("%s|%s|%s|%04d|%g|%s|%s", s.Model, s.Mode, dataset, pool, alpha, strategy, variant)
}

// layout is the part of a grid that needs no ground truth: the problems,
// their pools (and the injected pools), and the problems found so far that
// stop the run. A run lays it out while its ground truth is imported.
type layout struct {
	probs      map[string]map[string]problems.Problem
	datasets   []string // those with pools of their own
	baseline   []string // those whose ground truth the grid reads
	publicOnly map[string]map[string]bool
	partitions map[string][]pools.Pool
	injected   []runstore.InjectedPool
	problems   []string
	// texts are the digests of the texts of every problem a pool may hold
	// (the partitioned datasets' and the injections' sources').
	texts textDigests
}

// A run builds its grid in two parts: layOut reads the problems and lays
// out their pools while the ground truth is imported, then fillGrid reads
// every solver's ground truth and lays out the cells. Problems that make
// the grid pointless — no problems for a dataset the config names, an
// injection whose datasets are missing or unfit, no gradeable ground truth
// for a (solver, dataset) — are collected in grid.problems rather than
// returned, so that preflight reports all of them at once.

// layOut reads the problems and partitions them into pools: the part of
// the grid that needs no ground truth.
func (r *Runner) layOut() (*layout, error) {
	probs, err := r.cfg.LoadProblems()
	if err != nil {
		return nil, err
	}
	l := &layout{probs: probs, partitions: map[string][]pools.Pool{}}
	for _, d := range r.cfg.Datasets {
		if _, ok := probs[d]; !ok {
			l.problems = append(l.problems, fmt.Sprintf("datasets: %q is in none of the problem files (they hold %s)", d, datasetList(probs)))
		}
	}
	l.datasets = r.cfg.SelectedDatasets(probs)
	partitioned := slices.Clone(l.datasets)
	for _, in := range r.cfg.Injection {
		if _, ok := probs[in.Base]; ok && !slices.Contains(partitioned, in.Base) {
			partitioned = append(partitioned, in.Base)
		}
	}
	for _, d := range partitioned {
		ids := make([]string, 0, len(probs[d]))
		for id := range probs[d] {
			ids = append(ids, id)
		}
		ps, err := pools.Partition(d, ids, r.cfg.PoolSize, r.cfg.PartitionSeed)
		if err != nil {
			return nil, fmt.Errorf("partition %s: %w", d, err)
		}
		l.partitions[d] = ps
	}
	l.texts = textDigests{}
	for _, d := range partitioned {
		for _, p := range probs[d] {
			l.texts.add(p.Text)
		}
	}
	for _, in := range r.cfg.Injection {
		for _, p := range probs[in.Source] {
			l.texts.add(p.Text)
		}
	}
	var problems []string
	l.injected, problems = r.composeInjections(probs, l.partitions)
	l.problems = append(l.problems, problems...)
	l.baseline = r.cfg.BaselineDatasets(probs)
	l.publicOnly = map[string]map[string]bool{}
	for _, d := range l.baseline {
		l.publicOnly[d] = publicTestsOnly(probs[d])
	}
	return l, nil
}

// fillGrid reads every solver's ground truth on l's datasets and lays out
// the cells. endpoints describes the Planner's endpoints by name (for the
// fingerprints of llm cells).
func (r *Runner) fillGrid(ctx context.Context, l *layout, endpoints map[string]EndpointInfo) (*grid, error) {
	g := &grid{partitions: l.partitions, injected: l.injected, problems: slices.Clone(l.problems), texts: l.texts}
	probs := l.probs
	truths, err := r.listTruth(ctx, l.baseline)
	if err != nil {
		return nil, err
	}
	// Stale ground truth stops the run (preflight) and counts as not
	// measured meanwhile, for every solver before any group reads it (a
	// partial reference's population reads the others'): a quote then
	// estimates its pools' calls, a report finds their cells stale.
	digests := map[string]problemDigests{} // by dataset
	for i, s := range r.cfg.Solvers {
		for _, d := range l.baseline {
			if digests[d] == nil {
				digests[d] = problemDigests{}
			}
			stale := staleTruth(probs[d], truths[i][d], digests[d])
			if len(stale) == 0 {
				continue
			}
			g.problems = append(g.problems, staleProblem(r.cfg.Where(fmt.Sprintf("solvers[%d]", i)), s, d, stale, len(r.cfg.GroundTruth) > 0))
			for _, id := range stale {
				delete(truths[i][d], id)
			}
		}
	}
	for i, s := range r.cfg.Solvers {
		var ep *EndpointInfo
		if info, ok := endpoints[s.Endpoint]; ok {
			ep = &info
		}
		truth := truths[i]
		for _, d := range l.baseline {
			acc := accuracyOf(s, d, probs[d], l.publicOnly[d], truth[d])
			g.accuracy = append(g.accuracy, acc)
			if acc.Gradeable == 0 {
				g.problems = append(g.problems, fmt.Sprintf("%s (%s/%s): no gradeable ground truth for any of the %d problems of %s; run `triage baseline` or import its ground truth first",
					r.cfg.Where(fmt.Sprintf("solvers[%d]", i)), s.Model, s.Mode, len(probs[d]), d))
			}
		}
		for _, d := range l.datasets {
			for _, p := range g.partitions[d] {
				grp := &group{solver: s, dataset: d, pool: p, texts: probs[d]}
				g.addGroup(r, grp, truths, i, ep)
			}
		}
		for k := range g.injected {
			inj := &g.injected[k]
			texts := maps.Clone(probs[inj.Base])
			maps.Copy(texts, probs[inj.Source])
			grp := &group{solver: s, dataset: inj.Base, pool: g.partitions[inj.Base][inj.Index], inj: inj, texts: texts}
			g.addGroup(r, grp, truths, i, ep)
		}
	}
	return g, nil
}

// truthReads is how many ground-truth listings fillGrid has under way at
// once: the reads wait on the store, not on this process.
const truthReads = 4

// listTruth reads every solver's ground truth on datasets, a few listings
// at once, by solver index and then dataset; the error is the first of
// them in that order.
func (r *Runner) listTruth(ctx context.Context, datasets []string) ([]map[string]map[string]*triagev1.GroundTruthRecord, error) {
	n := len(datasets)
	lists := make([]map[string]*triagev1.GroundTruthRecord, len(r.cfg.Solvers)*n)
	errs := make([]error, len(lists))
	var g errgroup.Group
	g.SetLimit(truthReads)
	for i, s := range r.cfg.Solvers {
		for j, d := range datasets {
			g.Go(func() error {
				lists[i*n+j], errs[i*n+j] = ListGroundTruth(ctx, r.clients.Executor, s, d)
				return nil
			})
		}
	}
	_ = g.Wait() // the errors are in errs, in order
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	out := make([]map[string]map[string]*triagev1.GroundTruthRecord, len(r.cfg.Solvers))
	for i := range out {
		out[i] = make(map[string]map[string]*triagev1.GroundTruthRecord, n)
		for j, d := range datasets {
			out[i][d] = lists[i*n+j]
		}
	}
	return out, nil
}

// addGroup fills grp's items from the ground truth of its solver,
// truths[solver], and, when the run plans a partial-information reference,
// its population from the others' (SPEC §4); then it adds its cells.
func (g *grid) addGroup(r *Runner, grp *group, truths []map[string]map[string]*triagev1.GroundTruthRecord, solver int, ep *EndpointInfo) {
	for _, id := range grp.ids() {
		p := grp.texts[id]
		rec, ok := truths[solver][p.Dataset][id]
		switch {
		case !ok:
			grp.unmeasured++
		case rec.GetGradeable():
			grp.items = append(grp.items, poolItem(p, rec))
		}
	}
	grp.digest = poolDigest(grp, g.texts)
	if slices.ContainsFunc(r.cfg.Strategies, vocab.Strategy.PartialReference) {
		grp.population = populationOf(grp, r.cfg.Solvers, truths)
		grp.populationDigest = digest(grp.population)
	}
	for _, c := range r.cellsOf(grp) {
		c.fingerprint, c.k = c.fingerprintOf(r.cfg, ep), c.key()
		g.cells = append(g.cells, c)
	}
}

// composeInjections draws every injected pool of the config (the same for
// every solver) and returns them with the problems that stop the run.
func (r *Runner) composeInjections(probs map[string]map[string]problems.Problem, partitions map[string][]pools.Pool) ([]runstore.InjectedPool, []string) {
	var out []runstore.InjectedPool
	var problems []string
	for i, in := range r.cfg.Injection {
		field := fmt.Sprintf("injection[%d]", i)
		base, okBase := probs[in.Base]
		source, okSource := probs[in.Source]
		if !okBase {
			problems = append(problems, fmt.Sprintf("%s.base: %q is in none of the problem files (they hold %s)", field, in.Base, datasetList(probs)))
		}
		if !okSource {
			problems = append(problems, fmt.Sprintf("%s.source: %q is in none of the problem files (they hold %s)", field, in.Source, datasetList(probs)))
		}
		if !okBase || !okSource {
			continue
		}
		var sourceIDs []string
		notMarked, collide := 0, ""
		for id, p := range source {
			sourceIDs = append(sourceIDs, id)
			if !p.Unsolvable {
				notMarked++
			}
			if _, ok := base[id]; ok && collide == "" {
				collide = id
			}
		}
		slices.Sort(sourceIDs)
		if notMarked > 0 {
			problems = append(problems, fmt.Sprintf("%s.source: %d of the %d problems of %s are not marked unsolvable; only unsolvable items are injected (import them with the *-abstain kinds)", field, notMarked, len(source), in.Source))
			continue
		}
		if collide != "" {
			problems = append(problems, fmt.Sprintf("%s.source: problem id %q is in both %s and %s; an injected pool needs distinct ids", field, collide, in.Base, in.Source))
			continue
		}
		for _, p := range partitions[in.Base] {
			for _, ratio := range in.Ratios {
				c, err := injection.Compose(injection.Spec{
					Seed: *in.Seed, Dataset: in.Base, Pool: p.Index, IDs: p.ProblemIDs,
					Source: sourceIDs, Ratio: ratio, TwinSuffix: in.TwinSuffix,
				})
				if err != nil {
					problems = append(problems, fmt.Sprintf("%s: %v", field, err))
					continue
				}
				out = append(out, runstore.InjectedPool{
					Base: in.Base, Source: in.Source, Ratio: ratio, Index: p.Index,
					ProblemIDs: c.IDs, Injected: c.Injected, Seed: *in.Seed, Algorithm: injection.Algorithm,
				})
			}
		}
	}
	return out, problems
}

// poolItem is what the Oracle and the Executor get of a problem: its
// ground truth, with y = 0 for an unsolvable item whatever its record says
// (SPEC §1; a record written by hand may still say correct).
func poolItem(p problems.Problem, rec *triagev1.GroundTruthRecord) *triagev1.GroundTruthItem {
	return &triagev1.GroundTruthItem{Id: p.ID, Cost: rec.GetCost(), Correct: rec.GetCorrect() && !p.Unsolvable, Value: valueOf(p)}
}

// accuracyOf is a solver's base accuracy on the run's problems of one
// dataset: y over the gradeable ones, with the lucky guesses on unsolvable
// items counted apart, and the gradeable ones among publicOnly (graded on
// public tests alone) counted.
func accuracyOf(s Solver, dataset string, probs map[string]problems.Problem, publicOnly map[string]bool, truth map[string]*triagev1.GroundTruthRecord) report.Accuracy {
	a := report.Accuracy{Model: s.Model, Mode: s.Mode, Dataset: dataset}
	for id, p := range probs {
		rec, ok := truth[id]
		if !ok || !rec.GetGradeable() {
			continue
		}
		a.Gradeable++
		if publicOnly[id] {
			a.PublicTestsOnly++
		}
		switch {
		case p.Unsolvable:
			a.Unsolvable++
			if rec.GetCorrect() || rec.GetLuckyGuess() {
				a.LuckyGuesses++
			}
		case rec.GetCorrect():
			a.Correct++
		}
	}
	return a
}

// publicTestsOnly returns the ids of the code problems of probs without
// hidden tests (grading.Spec.PublicTestsOnly). Grading data that does not
// parse counts as not: such a problem is never gradeable.
func publicTestsOnly(probs map[string]problems.Problem) map[string]bool {
	out := map[string]bool{}
	for id, p := range probs {
		if spec, err := grading.ParseSpec(p.Grading); err == nil && spec.PublicTestsOnly() {
			out[id] = true
		}
	}
	return out
}

func (r *Runner) cellsOf(g *group) []cell {
	var out []cell
	for _, a := range r.cfg.Alphas {
		for _, s := range r.cfg.Strategies {
			if !s.UsesPrompt() {
				out = append(out, cell{g: g, alpha: a, strategy: s, variant: vocab.NoVariant})
				continue
			}
			for _, v := range r.cfg.Variants {
				out = append(out, cell{g: g, alpha: a, strategy: s, variant: v})
			}
		}
	}
	return out
}

// datasetList names the datasets of probs, sorted, for messages.
func datasetList(probs map[string]map[string]problems.Problem) string {
	names := make([]string, 0, len(probs))
	for d := range probs {
		names = append(names, d)
	}
	slices.Sort(names)
	return fmt.Sprintf("%q", names)
}
