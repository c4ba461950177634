package orchestrator

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/pools"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/testkit/golden"
)

// TestFingerprintsAreStable pins the fingerprints of one cell per strategy
// that existed before the partial-information references (the golden file
// was written by main before they joined the grid): a change to them makes
// every stored cell of a run stale, so it must be deliberate (a new
// fingerprintVersion) and show up here. The group has a population, which
// these strategies do not depend on.
func TestFingerprintsAreStable(t *testing.T) {
	cfg := &Config{StrategySeed: 1, Regimes: vocab.Regimes(), Random: RandomConfig{Method: "monte_carlo", Samples: 1000, Seed: 2}}
	g := &group{
		solver: Solver{Model: "m", Mode: "extended", Endpoint: "q"}, dataset: "aime", pool: pools.Pool{Index: 3, ProblemIDs: []string{"x", "y", "z"}},
		texts: map[string]problems.Problem{
			"x": {ID: "x", Dataset: "aime", Text: "first"},
			"y": {ID: "y", Dataset: "aime", Text: "second"},
			"z": {ID: "z", Dataset: "aime", Text: "third"},
		},
		items: []*triagev1.GroundTruthItem{{Id: "x", Cost: 100, Correct: true}, {Id: "y", Cost: 200}},
	}
	known := textDigests{} // as layOut hashes a run's texts
	for _, p := range g.texts {
		known.add(p.Text)
	}
	g.digest = poolDigest(g, known)
	if d := poolDigest(g, nil); d != g.digest {
		t.Errorf("the pool's digest is %s from the run's text digests and %s from the texts", g.digest, d)
	}
	g.population = []member{{Model: "n", Mode: "standard", Records: []memberRecord{{ID: "x", Cost: 50, Correct: true}}}}
	g.populationDigest = digest(g.population)
	ep := &EndpointInfo{Name: "q", Model: "m", Mode: "extended", Settings: "s1"}
	var b strings.Builder
	for _, s := range []vocab.Strategy{vocab.LLM, vocab.Random, vocab.ShortestFirst, vocab.AllInOrder} {
		c := cell{g: g, alpha: 0.5, strategy: s, variant: vocab.NoVariant}
		if s.UsesPrompt() {
			c.variant = vocab.Default
		}
		fmt.Fprintf(&b, "%s %s\n", c.key(), c.fingerprintOf(cfg, ep))
	}
	golden.File(t, filepath.Join("testdata", "fingerprints.golden"), []byte(b.String()))
}
