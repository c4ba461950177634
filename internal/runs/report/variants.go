package report

import "github.com/triage-eval/triage/internal/protocol/vocab"

// ScopePhrase names a strategy and its prompt variant in titles and
// captions: "strategy llm, variant default", or "strategy random" for a
// strategy without a prompt (vocab.NoVariant or empty).
func ScopePhrase(strategy vocab.Strategy, variant vocab.Variant) string {
	if variant == vocab.NoVariant || variant == "" {
		return "strategy " + string(strategy)
	}
	return "strategy " + string(strategy) + ", variant " + string(variant)
}

// headlineVariant is the llm variant the summary shows: vocab.Default
// when the report has llm cells under it, else the first llm variant in
// vocab.CompareVariants order; "" when the report has no llm cell.
func (r Report) headlineVariant() vocab.Variant {
	var best vocab.Variant
	for _, c := range r.Cells {
		if c.Strategy != vocab.LLM {
			continue
		}
		if best == "" || vocab.CompareVariants(c.Variant, best) < 0 {
			best = c.Variant
		}
	}
	return best
}
