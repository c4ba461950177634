package report

import (
	"slices"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// TestHeadlineAlphaIsResolvedOnce: the report's headline α is its α
// nearest to the one asked for, the smaller of two equally near whatever
// the cell order, and the summary uses it.
func TestHeadlineAlphaIsResolvedOnce(t *testing.T) {
	recs := []ScoreRecord{
		rec("a", "standard", "d", 0.75, "default", "llm", "U", 0, 1, 2, 1),
		rec("b", "standard", "d", 0.25, "default", "llm", "U", 0, 1, 2, 1),
		rec("b", "standard", "d", 1, "default", "llm", "U", 0, 1, 2, 1),
	}
	tests := []struct {
		name       string
		recs       []ScoreRecord
		ask, alpha float64
	}{
		{"a tie takes the smaller", recs, 0.5, 0.25},
		{"nearest", recs, 0.9, 1},
		{"default HeadlineAlpha", recs, 0, 0.25},
		{"exact", recs, 0.75, 0.75},
		{"no cells: the α asked for", nil, 0.3, 0.3},
		{"no cells, default", nil, 0, HeadlineAlpha},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := BuildWith(tt.recs, nil, Options{Alpha: tt.ask})
			if rep.Alpha != tt.alpha {
				t.Fatalf("Alpha = %v, want %v", rep.Alpha, tt.alpha)
			}
			for _, row := range rep.Headline() {
				if row.Alpha != tt.alpha {
					t.Errorf("headline row %s at α = %v, want %v", row.Model, row.Alpha, tt.alpha)
				}
			}
		})
	}
}

// TestScopesAreResolvedOnce: the strategy-variant pairs of the tables,
// the summary and the figures, in vocab's order.
func TestScopesAreResolvedOnce(t *testing.T) {
	sv := func(s vocab.Strategy, v vocab.Variant) StrategyVariant { return StrategyVariant{s, v} }
	ratio := 0.5
	injected := rec("m", "standard", "d", 0.5, "-", "random", "U", 0, 1, 2, 1)
	injected.Source, injected.Ratio = "u", &ratio
	mixed := []ScoreRecord{
		rec("m", "standard", "d", 0.5, "-", "shortest_first", "U", 0, 1, 2, 1),
		rec("m", "standard", "d", 0.5, "A", "llm", "U", 0, 1, 2, 1),
		rec("m", "standard", "d", 0.5, "-", "random", "E", 0, 1, 2, 1),
		rec("m", "standard", "d", 0.5, "default", "llm", "E", 0, 1, 2, 1),
		injected,
	}
	refs := []ScoreRecord{mixed[0], mixed[2]}
	withPartial := append(slices.Clone(refs), rec("m", "standard", "d", 0.5, "-", "population", "U", 0, 1, 2, 1))
	partialOnly := withPartial[2:]
	// Every llm plan unparseable: the llm pair has cells, none measured.
	unparsed := append(slices.Clone(refs), excluded("m", "standard", "d", 0.5, "default", "llm", "U", 0, "unparseable"))
	tests := []struct {
		name                                      string
		recs                                      []ScoreRecord
		variant                                   vocab.Variant
		scopes, headline, figures, injectionScope []StrategyVariant
		knowledge                                 StrategyVariant
	}{
		{
			name: "llm and references", recs: mixed, variant: vocab.Default,
			scopes:         []StrategyVariant{sv(vocab.LLM, vocab.Default), sv(vocab.LLM, vocab.Neutral), sv(vocab.Random, vocab.NoVariant), sv(vocab.ShortestFirst, vocab.NoVariant)},
			headline:       []StrategyVariant{sv(vocab.LLM, vocab.Default)},
			figures:        []StrategyVariant{sv(vocab.LLM, vocab.Default), sv(vocab.LLM, vocab.Neutral)},
			injectionScope: []StrategyVariant{sv(vocab.Random, vocab.NoVariant)},
			knowledge:      sv(vocab.LLM, vocab.Default),
		},
		{
			name: "references only", recs: refs,
			scopes:    []StrategyVariant{sv(vocab.Random, vocab.NoVariant), sv(vocab.ShortestFirst, vocab.NoVariant)},
			headline:  []StrategyVariant{sv(vocab.Random, vocab.NoVariant), sv(vocab.ShortestFirst, vocab.NoVariant)},
			figures:   []StrategyVariant{sv(vocab.Random, vocab.NoVariant), sv(vocab.ShortestFirst, vocab.NoVariant)},
			knowledge: sv(vocab.Random, vocab.NoVariant),
		},
		{
			// The partial-information references are compared with a
			// planner in the self-knowledge table, not headlined.
			name: "references and a partial-information reference", recs: withPartial,
			scopes:    []StrategyVariant{sv(vocab.Population, vocab.NoVariant), sv(vocab.Random, vocab.NoVariant), sv(vocab.ShortestFirst, vocab.NoVariant)},
			headline:  []StrategyVariant{sv(vocab.Random, vocab.NoVariant), sv(vocab.ShortestFirst, vocab.NoVariant)},
			figures:   []StrategyVariant{sv(vocab.Population, vocab.NoVariant), sv(vocab.Random, vocab.NoVariant), sv(vocab.ShortestFirst, vocab.NoVariant)},
			knowledge: sv(vocab.Random, vocab.NoVariant),
		},
		{
			name: "a partial-information reference alone", recs: partialOnly,
			scopes:   []StrategyVariant{sv(vocab.Population, vocab.NoVariant)},
			headline: []StrategyVariant{sv(vocab.Population, vocab.NoVariant)},
			figures:  []StrategyVariant{sv(vocab.Population, vocab.NoVariant)},
		},
		{
			// The llm pair measured nothing: the figures draw the
			// references rather than nothing.
			name: "llm plans all unparseable", recs: unparsed, variant: vocab.Default,
			scopes:    []StrategyVariant{sv(vocab.LLM, vocab.Default), sv(vocab.Random, vocab.NoVariant), sv(vocab.ShortestFirst, vocab.NoVariant)},
			headline:  []StrategyVariant{sv(vocab.LLM, vocab.Default)},
			figures:   []StrategyVariant{sv(vocab.LLM, vocab.Default), sv(vocab.Random, vocab.NoVariant), sv(vocab.ShortestFirst, vocab.NoVariant)},
			knowledge: sv(vocab.LLM, vocab.Default),
		},
		{
			name: "no default variant", recs: mixed[1:2], variant: vocab.Neutral,
			scopes:    []StrategyVariant{sv(vocab.LLM, vocab.Neutral)},
			headline:  []StrategyVariant{sv(vocab.LLM, vocab.Neutral)},
			figures:   []StrategyVariant{sv(vocab.LLM, vocab.Neutral)},
			knowledge: sv(vocab.LLM, vocab.Neutral),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Build(tt.recs, nil)
			if rep.HeadlineVariant != tt.variant {
				t.Errorf("HeadlineVariant = %q, want %q", rep.HeadlineVariant, tt.variant)
			}
			if rep.KnowledgeScope != tt.knowledge {
				t.Errorf("KnowledgeScope = %v, want %v", rep.KnowledgeScope, tt.knowledge)
			}
			for _, c := range []struct {
				what      string
				got, want []StrategyVariant
			}{
				{"Scopes", rep.Scopes, tt.scopes},
				{"HeadlineScopes", rep.HeadlineScopes, tt.headline},
				{"FigureScopes", rep.FigureScopes, tt.figures},
				{"InjectionFigureScopes", rep.InjectionFigureScopes, tt.injectionScope},
			} {
				if !slices.Equal(c.got, c.want) {
					t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
				}
			}
		})
	}
}

// TestBootstrapIsResolved: the report records the interval settings with
// their defaults filled, as every renderer prints them.
func TestBootstrapIsResolved(t *testing.T) {
	got := BuildWith(nil, nil, Options{Bootstrap: metrics.Bootstrap{Seed: 4}}).Bootstrap
	want := metrics.Bootstrap{Resamples: metrics.DefaultResamples, TailPerMille: metrics.DefaultTailPerMille, Seed: 4}
	if got != want {
		t.Errorf("Bootstrap = %+v, want %+v", got, want)
	}
}

// TestIndexFindsEveryCell: plain, injection and macro cells by Key.
func TestIndexFindsEveryCell(t *testing.T) {
	ratio := 0.5
	injected := rec("m", "standard", "d", 0.5, "default", "llm", "U", 0, 1, 2, 1)
	injected.Source, injected.Ratio = "u", &ratio
	rep := Build([]ScoreRecord{rec("m", "standard", "d", 0.5, "default", "llm", "U", 0, 1, 2, 1), injected}, nil)
	ix := rep.Index()
	for _, c := range append(append(slices.Clone(rep.Cells), rep.Injection...), rep.Macros...) {
		got, ok := ix.Cell(c.Key())
		if !ok || got.Key() != c.Key() || got.Pools != c.Pools {
			t.Errorf("Index().Cell(%+v) = %+v, %v", c.Key(), got.Key(), ok)
		}
	}
	if len(rep.Cells) != 1 || len(rep.Injection) != 1 || len(rep.Macros) != 1 {
		t.Fatalf("cells %d, injection %d, macros %d; want 1 each", len(rep.Cells), len(rep.Injection), len(rep.Macros))
	}
	if _, ok := ix.Cell(Key{Solver: Solver{"m", "standard"}, Dataset: "d", Alpha: 0.5, StrategyVariant: StrategyVariant{vocab.LLM, vocab.Default}, Regime: vocab.Enforced}); ok {
		t.Error("found a cell that does not exist")
	}
}

// TestHeadlineRatioIsResolvedOnce: 0.5 when present, else the largest
// ratio below 1, else 0.
func TestHeadlineRatioIsResolvedOnce(t *testing.T) {
	injected := func(ratios ...float64) []ScoreRecord {
		var out []ScoreRecord
		for _, r := range ratios {
			x := rec("m", "standard", "d", 0.5, "default", "llm", "U", 0, 1, 2, 1)
			x.Source, x.Ratio = "u", &r
			out = append(out, x)
		}
		return out
	}
	tests := []struct {
		recs []ScoreRecord
		want float64
	}{
		{injected(0, 0.25, 1), 0.25},
		{injected(0.75, 0.5, 0.25), 0.5},
		{injected(1), 0},
		{nil, 0},
	}
	for _, tt := range tests {
		if got := Build(tt.recs, nil).HeadlineRatio; got != tt.want {
			t.Errorf("%d injection cells: HeadlineRatio = %v, want %v", len(tt.recs), got, tt.want)
		}
	}
}
