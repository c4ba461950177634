package orchestrator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// fingerprintVersion names the fingerprint scheme; a change to what a cell
// depends on, or to how it is computed, is a new version, which makes every
// stored cell stale.
const fingerprintVersion = "triage/cell/v1"

// poolInputs is what every cell of one (solver, pool) depends on: the pool
// as partitioned and, for each item the solver keeps, what the planner sees
// of it (its text, by hash, and value) and its ground truth.
type poolInputs struct {
	Model   string       `json:"model"`
	Mode    string       `json:"mode"`
	Dataset string       `json:"dataset"`
	Pool    int          `json:"pool"`
	Source  string       `json:"source,omitempty"` // injected pools only
	IDs     []string     `json:"ids"`
	Items   []itemInputs `json:"items"`
}

// itemInputs is one gradeable item of a pool.
type itemInputs struct {
	ID         string  `json:"id"`
	Injected   bool    `json:"injected,omitempty"`
	TextSHA256 string  `json:"text_sha256"`
	Value      float64 `json:"value"`
	Cost       int64   `json:"cost"`
	Correct    bool    `json:"correct"`
	Unsolvable bool    `json:"unsolvable,omitempty"`
}

// cellInputs is what one cell adds to its pool's inputs.
type cellInputs struct {
	Version  string         `json:"version"`
	Pool     string         `json:"pool"` // poolDigest of the cell's pool
	Alpha    float64        `json:"alpha"`
	Strategy vocab.Strategy `json:"strategy"`
	Variant  vocab.Variant  `json:"variant"`
	Seed     uint64         `json:"strategy_seed"`
	Regimes  []vocab.Regime `json:"regimes"`
	Random   RandomConfig   `json:"random"`
	// For the llm strategy: the prompt template, the domain label and the
	// endpoint that plays the solver (as the Planner describes it).
	Template string        `json:"template,omitempty"`
	Domain   string        `json:"domain,omitempty"`
	Endpoint *EndpointInfo `json:"endpoint,omitempty"`
	// PlannerIDs names how problems are shown to a planner (SPEC §1).
	PlannerIDs string `json:"planner_ids,omitempty"`
	// For a partial-information reference (SPEC §4): the digest of its
	// population's ground truth (each member's solver and its records of the
	// pool's items), so that a change to any member's ground truth makes it
	// stale. Empty, and so absent, for every other strategy.
	Population string `json:"population,omitempty"`
}

// plannerIDScheme is how planners see problems: p1 … pn in pool order.
const plannerIDScheme = "opaque p1…pn"

// EndpointInfo is what a cell's fingerprint records of the endpoint that
// plays its solver, as the Planner describes it: its name, model and mode,
// and the hash of every setting that changes its answers; never a secret.
type EndpointInfo struct {
	Name     string `json:"name"`
	Model    string `json:"model"`
	Mode     string `json:"mode"`
	Settings string `json:"settings_sha256"`
}

// textDigests holds the hex SHA-256 of problem texts, by text: a run
// hashes each problem's text once (layOut), not once for every solver
// whose pools hold it.
type textDigests map[string]string

// add hashes text unless d holds it.
func (d textDigests) add(text string) {
	if _, ok := d[text]; !ok {
		d[text] = d.of(text)
	}
}

// of returns the hex SHA-256 of text, from d when d holds it.
func (d textDigests) of(text string) string {
	if h, ok := d[text]; ok {
		return h
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// poolDigest returns the hex SHA-256 of a group's pool inputs; texts holds
// the digests of the problems' texts that are known already (nil: none).
func poolDigest(g *group, texts textDigests) string {
	in := poolInputs{Model: g.solver.Model, Mode: g.solver.Mode, Dataset: g.dataset, Pool: g.pool.Index, IDs: g.ids(), Items: make([]itemInputs, len(g.items))}
	injected := map[string]bool{}
	if g.inj != nil {
		in.Source = g.inj.Source
		for i, id := range g.inj.ProblemIDs {
			injected[id] = g.inj.Injected[i]
		}
	}
	for i, it := range g.items {
		p := g.texts[it.GetId()]
		in.Items[i] = itemInputs{
			ID: it.GetId(), Injected: injected[it.GetId()], TextSHA256: texts.of(p.Text), Value: it.GetValue(),
			Cost: it.GetCost(), Correct: it.GetCorrect(), Unsolvable: p.Unsolvable,
		}
	}
	return digest(in)
}

// fingerprintOf returns the hex SHA-256 of everything c is computed from
// (SPEC §5 freshness). endpoint is the solver's endpoint for the llm
// strategy (nil otherwise, or when the Planner does not describe it).
func (c cell) fingerprintOf(cfg *Config, endpoint *EndpointInfo) string {
	in := cellInputs{
		Version: fingerprintVersion, Pool: c.g.digest, Alpha: c.alpha, Strategy: c.strategy, Variant: c.variant,
		Seed: cfg.StrategySeed, Regimes: cfg.Regimes, Random: cfg.Random,
	}
	if c.strategy.UsesPrompt() {
		in.Template = templateID(c.variant)
		in.Domain = prompts.DomainLabel(c.g.dataset)
		in.Endpoint = endpoint
		in.PlannerIDs = plannerIDScheme
	}
	if c.strategy.PartialReference() {
		in.Population = c.g.populationDigest
	}
	return digest(in)
}

// templateIDs holds templateID's answers by variant: the templates are
// embedded, so a variant's never changes, and a grid asks for it once per
// llm cell (reading and hashing the template was more than half of a
// fingerprint's CPU).
var templateIDs sync.Map // vocab.Variant → string

// templateID names the planner template of variant v and its hash ("" for
// a variant without one), as a cell's fingerprint records it.
func templateID(v vocab.Variant) string {
	if id, ok := templateIDs.Load(v); ok {
		return id.(string)
	}
	id := ""
	if t, err := prompts.Planner(v); err == nil {
		id = t.Name + "@" + t.SHA256
	}
	templateIDs.Store(v, id)
	return id
}

// digest hashes v's JSON encoding (struct fields in declaration order, so
// the encoding is canonical for these types).
func digest(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		panic("orchestrator: fingerprint inputs must encode: " + err.Error())
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}
