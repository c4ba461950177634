package report

import (
	"cmp"

	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// HeadlineVariant is the prompt variant of the summary and the headline
// figures (SPEC §5): the paper's appendix prompt, whatever order a config
// lists its variants in. Other variants appear in the sensitivity tables.
const HeadlineVariant = string(vocab.Default)

// NoVariant is the variant of the strategies that use no prompt (the
// reference strategies).
const NoVariant = "-"

// CompareVariants is the order of prompt variants in every table, file and
// figure: HeadlineVariant first, then the others by name.
func CompareVariants(a, b string) int {
	rank := func(v string) int {
		if v == HeadlineVariant {
			return 0
		}
		return 1
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b))
}

// ScopePhrase names a strategy and its prompt variant in titles and
// captions: "strategy llm, variant default", or "strategy random" for a
// strategy without a prompt (NoVariant or empty).
func ScopePhrase(strategy, variant string) string {
	if variant == NoVariant || variant == "" {
		return "strategy " + strategy
	}
	return "strategy " + strategy + ", variant " + variant
}

// headlineVariant is the llm variant the summary shows: HeadlineVariant
// when the report has llm cells under it, else the first llm variant in
// CompareVariants order; "" when the report has no llm cell.
func (r Report) headlineVariant() string {
	best := ""
	for _, c := range r.Cells {
		if c.Strategy != StrategyLLM {
			continue
		}
		if best == "" || CompareVariants(c.Variant, best) < 0 {
			best = c.Variant
		}
	}
	return best
}
