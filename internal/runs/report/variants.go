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
