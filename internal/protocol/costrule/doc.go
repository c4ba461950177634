// Package costrule is the SPEC §1 rule that turns a response's usage into
// the output cost c of a ground-truth record, reasoning included, and the
// names of its branches. Every stored cost carries the Rule that gave it,
// so a cost measured under one provider's usage convention can be told
// from another's.
//
// It is the one home of the rule: the LLM gateway applies it to each
// response (and again to each cached one, so entries stored before a change
// of the rule read with the current one), and the ground-truth store and its
// formats accept exactly the names Rules lists.
package costrule
