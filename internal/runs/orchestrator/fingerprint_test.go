package orchestrator

import (
	"testing"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/pools"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// TestFingerprintCoversEveryInput changes one input at a time: each must
// change the cell's fingerprint (SPEC §5), and what a cell does not depend
// on must not.
func TestFingerprintCoversEveryInput(t *testing.T) {
	type setup struct {
		cfg   Config
		cell  cell
		texts map[string]problems.Problem
		items []*triagev1.GroundTruthItem
		ep    *EndpointInfo
	}
	fresh := func() *setup {
		s := &setup{
			cfg: Config{StrategySeed: 1, Regimes: vocab.Regimes(), Random: RandomConfig{Method: "monte_carlo", Samples: 1000, Seed: 2}, Concurrency: 8, Name: "a"},
			texts: map[string]problems.Problem{
				"x": {ID: "x", Dataset: "aime", Text: "first"},
				"y": {ID: "y", Dataset: "aime", Text: "second"},
			},
			items: []*triagev1.GroundTruthItem{{Id: "x", Cost: 100, Correct: true}, {Id: "y", Cost: 200}},
			ep:    &EndpointInfo{Name: "q", Model: "m", Mode: "extended", Settings: "s1"},
		}
		s.cell = cell{g: &group{solver: Solver{Model: "m", Mode: "extended", Endpoint: "q"}, dataset: "aime", pool: pools.Pool{Index: 0, ProblemIDs: []string{"x", "y"}}},
			alpha: 0.5, strategy: vocab.LLM, variant: "default"}
		return s
	}
	fp := func(s *setup) string {
		s.cell.g.items, s.cell.g.texts = s.items, s.texts
		s.cell.g.digest = poolDigest(s.cell.g, nil)
		return s.cell.fingerprintOf(&s.cfg, s.ep)
	}
	base := fp(fresh())
	if base != fp(fresh()) {
		t.Fatal("the fingerprint is not deterministic")
	}
	changes := map[string]func(*setup){
		"α":                 func(s *setup) { s.cell.alpha = 0.75 },
		"strategy":          func(s *setup) { s.cell.strategy = vocab.Random },
		"variant":           func(s *setup) { s.cell.variant = "B" },
		"strategy seed":     func(s *setup) { s.cfg.StrategySeed = 9 },
		"regimes":           func(s *setup) { s.cfg.Regimes = []vocab.Regime{vocab.Advisory} },
		"random samples":    func(s *setup) { s.cfg.Random.Samples = 10 },
		"random seed":       func(s *setup) { s.cfg.Random.Seed = 3 },
		"endpoint settings": func(s *setup) { s.ep.Settings = "s2" },
		"endpoint model":    func(s *setup) { s.ep.Model = "m2" },
		"item cost":         func(s *setup) { s.items[1].Cost = 201 },
		"item correct":      func(s *setup) { s.items[1].Correct = true },
		"item value":        func(s *setup) { v := 2.0; s.items[0].Value = &v },
		"item text":         func(s *setup) { s.texts["x"] = problems.Problem{ID: "x", Dataset: "aime", Text: "first!"} },
		"item unsolvable": func(s *setup) {
			s.texts["y"] = problems.Problem{ID: "y", Dataset: "aime", Text: "second", Unsolvable: true}
		},
		"item dropped":       func(s *setup) { s.items = s.items[:1] },
		"pool order":         func(s *setup) { s.cell.g.pool.ProblemIDs = []string{"y", "x"} },
		"pool index":         func(s *setup) { s.cell.g.pool.Index = 1 },
		"solver":             func(s *setup) { s.cell.g.solver.Mode = "standard" },
		"dataset (domain)":   func(s *setup) { s.cell.g.dataset = "gpqa" },
		"no endpoint answer": func(s *setup) { s.ep = nil },
		"injected pool": func(s *setup) {
			s.cell.g.inj = &runstore.InjectedPool{Base: "aime", Source: "aime-abstain", Ratio: 0.5, ProblemIDs: []string{"x", "y"}, Injected: []bool{false, true}}
		},
	}
	for name, change := range changes {
		s := fresh()
		change(s)
		if fp(s) == base {
			t.Errorf("%s: the fingerprint did not change", name)
		}
	}
	same := map[string]func(*setup){
		"run name":    func(s *setup) { s.cfg.Name = "b" },
		"concurrency": func(s *setup) { s.cfg.Concurrency = 64 },
	}
	for name, change := range same {
		s := fresh()
		change(s)
		if fp(s) != base {
			t.Errorf("%s changed the fingerprint; a cell does not depend on it", name)
		}
	}
	// Reference strategies use no prompt: their fingerprint ignores the
	// endpoint.
	a, b := fresh(), fresh()
	a.cell.strategy, b.cell.strategy, b.ep = vocab.Random, vocab.Random, &EndpointInfo{Settings: "other"}
	if fp(a) != fp(b) {
		t.Error("a random-strategy cell depends on the planning endpoint")
	}
}

// TestPartialReferenceFingerprint: a partial-information reference's
// fingerprint covers its population's ground truth (each member's solver
// and records), and no other strategy's does.
func TestPartialReferenceFingerprint(t *testing.T) {
	cfg := &Config{Regimes: vocab.Regimes(), Random: RandomConfig{Method: "monte_carlo", Samples: 1000}}
	population := func() []member {
		return []member{
			{Model: "n", Mode: "standard", Records: []memberRecord{{ID: "x", Cost: 50, Correct: true}, {ID: "y", Cost: 70}}},
			{Model: "o", Mode: "extended", Records: []memberRecord{{ID: "y", Cost: 90, Correct: true}}},
		}
	}
	fp := func(s vocab.Strategy, change func([]member) []member) string {
		g := &group{solver: Solver{Model: "m", Mode: "standard"}, dataset: "aime", pool: pools.Pool{ProblemIDs: []string{"x", "y"}},
			texts: map[string]problems.Problem{"x": {ID: "x", Dataset: "aime"}, "y": {ID: "y", Dataset: "aime"}},
			items: []*triagev1.GroundTruthItem{{Id: "x", Cost: 100, Correct: true}, {Id: "y", Cost: 200}}}
		g.digest = poolDigest(g, nil)
		g.population = change(population())
		g.populationDigest = digest(g.population)
		return cell{g: g, alpha: 0.5, strategy: s, variant: vocab.NoVariant}.fingerprintOf(cfg, nil)
	}
	same := func(p []member) []member { return p }
	changes := map[string]func([]member) []member{
		"member cost":     func(p []member) []member { p[0].Records[1].Cost = 71; return p },
		"member correct":  func(p []member) []member { p[1].Records[0].Correct = false; return p },
		"member record":   func(p []member) []member { p[1].Records = nil; return p },
		"member solver":   func(p []member) []member { p[1].Mode = "standard"; return p },
		"member left out": func(p []member) []member { return p[:1] },
	}
	for _, s := range vocab.PartialReferences() {
		base := fp(s, same)
		for name, change := range changes {
			if fp(s, change) == base {
				t.Errorf("%s: %s did not change the fingerprint", s, name)
			}
		}
	}
	for _, s := range []vocab.Strategy{vocab.Random, vocab.ShortestFirst, vocab.AllInOrder} {
		base := fp(s, same)
		for name, change := range changes {
			if fp(s, change) != base {
				t.Errorf("%s: %s changed the fingerprint; the strategy does not read the population", s, name)
			}
		}
	}
}

// TestPoolDigestFromKnownTexts: a pool's digest is the same whether its
// texts' digests are computed on the spot or read from those a run
// computed once (layOut), and a text the run did not hash is hashed.
func TestPoolDigestFromKnownTexts(t *testing.T) {
	g := &group{solver: Solver{Model: "m", Mode: "standard"}, dataset: "aime", pool: pools.Pool{ProblemIDs: []string{"x", "y"}},
		texts: map[string]problems.Problem{"x": {ID: "x", Dataset: "aime", Text: "Find x."}, "y": {ID: "y", Dataset: "aime", Text: "Find y."}},
		items: []*triagev1.GroundTruthItem{{Id: "x", Cost: 100, Correct: true}, {Id: "y", Cost: 200}}}
	want := poolDigest(g, nil)
	all, some := textDigests{}, textDigests{}
	all.add("Find x.")
	all.add("Find y.")
	some.add("Find y.")
	for name, known := range map[string]textDigests{"all": all, "some": some, "none": {}} {
		if got := poolDigest(g, known); got != want {
			t.Errorf("with %s texts known: %s, want %s", name, got, want)
		}
	}
	g.texts["x"] = problems.Problem{ID: "x", Dataset: "aime", Text: "Find z."}
	if poolDigest(g, all) == want {
		t.Error("a changed text left the digest as it was")
	}
}
